ALTER TABLE `matches` ADD `price_drop` text;--> statement-breakpoint
ALTER TABLE `posts` ADD `listing_id` integer;--> statement-breakpoint
CREATE INDEX `posts_author_created` ON `posts` (lower("author"),`created_at`);--> statement-breakpoint
CREATE INDEX `posts_listing` ON `posts` (`listing_id`);