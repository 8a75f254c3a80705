ALTER TABLE `auth_factors` ADD `replay_alerted_at` integer;--> statement-breakpoint
ALTER TABLE `recovery_codes` ADD `scheme` text DEFAULT 'short-sha256' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `second_factor_at` integer;--> statement-breakpoint
-- Sessions signed in before their account turned on two-factor sign-in presented no code: they end here
-- (enrolment ends the other sessions from now on). Every other session starts with second_factor_at unset,
-- so an admin signs in once more with a code before the admin pages open under REQUIRE_ADMIN_2FA.
DELETE FROM `sessions` WHERE EXISTS (SELECT 1 FROM `auth_factors` f WHERE f.`user_id` = `sessions`.`user_id` AND f.`verified_at` IS NOT NULL AND `sessions`.`created_at` < f.`verified_at`);
