-- Three foreign keys of the deposits dropped for checks by statement triggers, as in migration 0027; 0037
-- dropped those triggers again, adding these keys back.
ALTER TABLE deposits DROP CONSTRAINT deposits_deposit_address_id_fkey;
ALTER TABLE deposits DROP CONSTRAINT deposits_wallet_user_currency;
ALTER TABLE user_notifications DROP CONSTRAINT user_notifications_user_id_fkey;
