CREATE TABLE `notify_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`url` text NOT NULL,
	`secret` text,
	`options` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_result` text,
	`last_result_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notify_endpoints_user` ON `notify_endpoints` (`user_id`);--> statement-breakpoint
ALTER TABLE `notification_prefs` ADD `quiet_start` text;--> statement-breakpoint
ALTER TABLE `notification_prefs` ADD `quiet_end` text;--> statement-breakpoint
ALTER TABLE `notification_prefs` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `search_terms` ADD `delivery` text;--> statement-breakpoint
ALTER TABLE `search_terms` ADD `muted_until` integer;--> statement-breakpoint
ALTER TABLE `search_terms` ADD `always_notify` integer DEFAULT false NOT NULL;