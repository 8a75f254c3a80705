CREATE TABLE `alert_latency` (
	`match_id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`post_id` integer,
	`created_at` integer,
	`received_at` integer,
	`stored_at` integer,
	`matched_at` integer NOT NULL,
	`socket_at` integer,
	`push_at` integer,
	`email_at` integer
);
--> statement-breakpoint
CREATE INDEX `alert_latency_matched` ON `alert_latency` (`matched_at`);