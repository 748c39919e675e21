-- The mailbox an address delivers to: lower case, the +tag of the local part removed; for gmail.com and
-- googlemail.com (one mailbox service) also the dots of the local part, under gmail.com. me+1@x.com,
-- ME@x.com and m.e@googlemail.com / me@gmail.com are each one mailbox. Signup refuses a referral code
-- whose owner's mailbox is the new account's (SELF_REFERRAL), and the counts skip such friends.
CREATE OR REPLACE FUNCTION email_mailbox(email text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN parts.domain IN ('gmail.com', 'googlemail.com') THEN replace(parts.local, '.', '') || '@gmail.com'
      ELSE parts.local || '@' || parts.domain
    END
    FROM (
      SELECT split_part(substring(address FROM '^(.*)@[^@]*$'), '+', 1) AS local,
             substring(address FROM '@([^@]*)$') AS domain
      FROM (SELECT lower(btrim(email)) AS address) AS lowered
    ) AS parts
  $$;
