CREATE TABLE `blocked_sellers` (
	`name` text PRIMARY KEY NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reddit_authors` (
	`name` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`account_created_at` integer,
	`karma` integer,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `alert_latency` ADD `claimed_at` integer;--> statement-breakpoint
ALTER TABLE `alert_latency` ADD `claim_channel` text;--> statement-breakpoint
ALTER TABLE `alert_latency` ADD `claim_action` text;--> statement-breakpoint
ALTER TABLE `notification_prefs` ADD `claim_template` text;