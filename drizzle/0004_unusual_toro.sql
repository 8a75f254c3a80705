CREATE TABLE `match_defaults` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`skip_sold` integer DEFAULT true NOT NULL,
	`exclude_words` text DEFAULT '[]' NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `posts` ADD `author_flair` text;