CREATE TABLE `sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`forum` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`url` text,
	`subreddits` text,
	`preset` text,
	`enabled` integer DEFAULT true NOT NULL,
	`secret` text,
	`etag` text,
	`last_modified` text,
	`last_polled_at` integer,
	`last_ok_at` integer,
	`last_error` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_posts` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
ALTER TABLE `posts` ADD `source_id` integer;--> statement-breakpoint
ALTER TABLE `posts` ADD `source_name` text;