DROP INDEX "matches_user_new";
--> statement-breakpoint
CREATE INDEX "matches_user_new" ON "matches" USING btree ("user_id","is_new","archived_at","category");
