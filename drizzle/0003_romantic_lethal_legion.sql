CREATE TABLE `access_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`role` text NOT NULL,
	`subscription_status` text,
	`access_expires_at` integer,
	`source` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `access_history_time` ON `access_history` (`created_at`);--> statement-breakpoint
CREATE INDEX `access_history_user` ON `access_history` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`actor_id` integer,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`details` text,
	`result` text DEFAULT 'ok' NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_time` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_time` ON `audit_log` (`action`,`created_at`);--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `read_at` integer;--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `replied_at` integer;--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `reply` text;