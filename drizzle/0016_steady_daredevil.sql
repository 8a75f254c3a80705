CREATE TABLE `feed_keys` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`nonce` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `feed_keys_secret_hash_unique` ON `feed_keys` (`secret_hash`);