import { hashPassword } from './auth.ts';
import type { PasswordHashing } from '../config.ts';
import type { Db } from '../db/db.ts';
import { maybeOne } from '../db/db.ts';

export const DEMO_PLAYER = {
  email: 'demo@casino.local',
  username: 'demo',
  password: 'Demo@1234',
} as const;

/** In simulator mode a verified demo player exists from the first start, so the product can be tried at once. */
export async function ensureDemoPlayer(db: Db, cost: PasswordHashing): Promise<boolean> {
  const existing = await maybeOne(db, 'SELECT 1 FROM users WHERE lower(email) = $1', [DEMO_PLAYER.email]);
  if (existing) return false;
  const passwordHash = await hashPassword(DEMO_PLAYER.password, cost);
  // Two instances starting at once on one database both find no demo player: the second one's insert
  // conflicts (email, username or referral code) and writes nothing.
  return db.transaction(async (tx) => {
    const user = await maybeOne<{ id: number }>(
      tx,
      `INSERT INTO users (email, username, password_hash, first_name, last_name, phone_code, phone, date_of_birth, gender,
         address, city, state_code, country_code, zip_code, email_verified_at, referral_code)
       VALUES ($1, $2, $3, 'Demo', 'Player', '351', '912345678', '1990-01-15', 'other',
         'Rua Augusta 100', 'Lisboa', '11', 'PT', '11000', now(), 'DEMO0001')
       ON CONFLICT DO NOTHING RETURNING id`,
      [DEMO_PLAYER.email, DEMO_PLAYER.username, passwordHash],
    );
    if (!user) return false;
    await tx.query(
      `INSERT INTO wallets (user_id, currency_id, selected)
       SELECT $1, c.id, row_number() OVER (ORDER BY c.sort_order, c.id) = 1 FROM currencies c WHERE c.enabled`,
      [user.id],
    );
    return true;
  });
}
