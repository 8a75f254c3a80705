CREATE TABLE `source_gaps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`forum` text NOT NULL,
	`subreddits` text NOT NULL,
	`from_at` integer NOT NULL,
	`to_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `source_gaps_to` ON `source_gaps` (`to_at`);--> statement-breakpoint
ALTER TABLE `posts` ADD `location` text;