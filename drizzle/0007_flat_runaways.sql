ALTER TABLE `notification_prefs` ADD `hold_seconds` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `posts` ADD `state` text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE `posts` ADD `state_changed_at` integer;--> statement-breakpoint
ALTER TABLE `posts` ADD `price` real;--> statement-breakpoint
ALTER TABLE `posts` ADD `rechecked_at` integer;--> statement-breakpoint
ALTER TABLE `posts` ADD `recheck_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `posts_ingested` ON `posts` (`ingested_at`);--> statement-breakpoint
CREATE INDEX `matches_post` ON `matches` (`post_id`);