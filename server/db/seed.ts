import { Country, State } from 'country-state-city';
import {
  DEPOSIT_CONFIRMATIONS,
  MAX_TRANSFER_AMOUNT,
  MIN_DEPOSIT_LTC,
  MIN_WITHDRAW_LTC,
  WITHDRAW_FEE_LTC,
  formatAmount,
} from '../../src/money.ts';
import type { HouseGame } from '../../src/fairness/games.ts';
import { DEFAULT_SLOT_SKIN, slotSkin, type SlotSkin } from '../../src/fairness/slot.ts';
import type { Db, Queryable } from './db.ts';

/**
 * Reference data every installation needs, written so it can run at every start: each row is keyed by
 * its natural key and inserted with ON CONFLICT, so a second run changes nothing (pages excepted: their
 * text is refreshed when this file's wording changes).
 */

export const SITE_NAME = 'Crypto Casino';
export const SUPPORT_EMAIL = 'support@casino.local';
/** Size of the catalogue every installation starts with; `npm run seed -- --games N` grows it. */
export const REFERENCE_GAME_COUNT = 300;
/** Default PRNG seed of the generated catalogue: the same seed always gives the same games. */
export const DEFAULT_CATALOGUE_SEED = 20240601;

const REFERRAL_REWARD = '0.001';
const REFERRAL_LIMIT = 10;

export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await seedSettings(tx);
    await seedLanguages(tx);
    await seedCurrencies(tx);
    await seedBonuses(tx);
    await seedPages(tx);
    await seedBanners(tx);
    await seedCountries(tx);
    await seedPaymentProviders(tx);
    await seedCatalogue(tx);
  });
  await seedGames(db, REFERENCE_GAME_COUNT);
}

// ---------------------------------------------------------------------------------------------------
// Settings, languages, currencies, payment providers

async function seedSettings(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO settings (id, site_name, min_deposit, min_withdraw, max_transfer_amount, withdraw_fee,
       deposit_confirmations, referral_reward, referral_limit)
     VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO NOTHING`,
    [
      SITE_NAME,
      formatAmount(MIN_DEPOSIT_LTC),
      formatAmount(MIN_WITHDRAW_LTC),
      formatAmount(MAX_TRANSFER_AMOUNT),
      formatAmount(WITHDRAW_FEE_LTC),
      DEPOSIT_CONFIRMATIONS,
      REFERRAL_REWARD,
      REFERRAL_LIMIT,
    ],
  );
}

async function seedLanguages(db: Queryable): Promise<void> {
  const languages = [
    { code: 'en', name: 'English', native_name: 'English', is_default: true, sort_order: 1 },
    { code: 'pt', name: 'Portuguese', native_name: 'Português', is_default: false, sort_order: 2 },
    { code: 'es', name: 'Spanish', native_name: 'Español', is_default: false, sort_order: 3 },
  ];
  await db.query(
    `INSERT INTO languages (code, name, native_name, is_default, sort_order)
     SELECT code, name, native_name, is_default, sort_order
     FROM json_to_recordset($1::json) AS x(code text, name text, native_name text, is_default boolean, sort_order int)
     ON CONFLICT (code) DO NOTHING`,
    [JSON.stringify(languages)],
  );
}

async function seedCurrencies(db: Queryable): Promise<void> {
  // LTC carries the SPEC §9 figures; the others are set in the same spirit (a few dollars' worth).
  const currencies = [
    {
      code: 'LTC',
      name: 'Litecoin',
      decimals: 8,
      network: 'Litecoin',
      min_deposit: formatAmount(MIN_DEPOSIT_LTC),
      min_withdraw: formatAmount(MIN_WITHDRAW_LTC),
      withdraw_fee: formatAmount(WITHDRAW_FEE_LTC),
      sort_order: 1,
    },
    { code: 'BTC', name: 'Bitcoin', decimals: 8, network: 'Bitcoin', min_deposit: '0.00001', min_withdraw: '0.0005', withdraw_fee: '0.00002', sort_order: 2 },
    { code: 'ETH', name: 'Ethereum', decimals: 8, network: 'Ethereum', min_deposit: '0.0005', min_withdraw: '0.01', withdraw_fee: '0.0005', sort_order: 3 },
    { code: 'USDT', name: 'Tether', decimals: 6, network: 'Tron TRC20', min_deposit: '1', min_withdraw: '10', withdraw_fee: '1', sort_order: 4 },
  ];
  // One row at a time, in order, so that on a fresh database LTC gets id 1.
  for (const c of currencies) {
    await db.query(
      `INSERT INTO currencies (code, name, decimals, network, min_deposit, min_withdraw, withdraw_fee, enabled, sort_order)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8)
       ON CONFLICT (code) DO NOTHING`,
      [c.code, c.name, c.decimals, c.network, c.min_deposit, c.min_withdraw, c.withdraw_fee, c.sort_order],
    );
  }
}

/**
 * The bonus catalogue: one offer of each kind, in LTC. Amounts are small and wagering short enough to
 * finish on the demo; the referral offer pays settings.referral_reward per qualified friend.
 */
async function seedBonuses(db: Queryable): Promise<void> {
  const offers = [
    { key: 'joining', type: 'joining', name: 'Welcome bonus', description: 'A joining bonus of 0.01 LTC to start playing. Wager it 10 times within 7 days.', amount: '0.01', percentage: null, min_deposit: null, wagering: 10, days: 7 },
    { key: 'deposit', type: 'deposit', name: 'Welcome deposit bonus', description: '100% of your next deposit of at least 0.01 LTC, up to 1 LTC. Wager it 30 times within 7 days.', amount: '1', percentage: '100', min_deposit: '0.01', wagering: 30, days: 7 },
    { key: 'daily', type: 'daily', name: 'Daily bonus', description: '0.001 LTC every day. Wager it 5 times within a day.', amount: '0.001', percentage: null, min_deposit: null, wagering: 5, days: 1 },
    { key: 'loyalty', type: 'loyalty', name: 'Loyalty bonus', description: 'A thank-you of 0.005 LTC. Wager it 10 times within 14 days.', amount: '0.005', percentage: null, min_deposit: null, wagering: 10, days: 14 },
    { key: 'bet', type: 'bet', name: 'Bet bonus', description: '0.002 LTC of bonus money for your bets. Wager it 5 times within 3 days.', amount: '0.002', percentage: null, min_deposit: null, wagering: 5, days: 3 },
    { key: 'referral', type: 'referral', name: 'Refer a friend', description: `Earn ${REFERRAL_REWARD} LTC for each friend who signs up with your referral code and qualifies (see Refer a friend), for up to ${REFERRAL_LIMIT} friends.`, amount: null, percentage: null, min_deposit: null, wagering: 0, days: 1 },
  ];
  for (const o of offers) {
    await db.query(
      `INSERT INTO bonuses (seed_key, type, name, description, amount, percentage, min_deposit, currency_id, wagering_multiplier, valid_days)
       SELECT $1, $2, $3, $4, $5, $6, $7, c.id, $8, $9 FROM currencies c WHERE c.code = 'LTC'
       ON CONFLICT (seed_key) DO NOTHING`,
      [o.key, o.type, o.name, o.description, o.amount, o.percentage, o.min_deposit, o.wagering, o.days],
    );
  }
}

async function seedPaymentProviders(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO payment_providers (key, name, deposit_allowed, withdraw_allowed, active)
     VALUES ('coinpayments', 'CoinPayments', true, true, true)
     ON CONFLICT (key) DO NOTHING`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Countries and states, from the country-state-city package

/**
 * The package's calling codes in the form players type them: '351' → '+351', '+1-684' → '+1-684',
 * '+1-809 and 1-829' → '+1-809' (the first one), '0055' → '+55' (an international '00' prefix).
 */
export function normalisePhoneCode(raw: string): string {
  const first = (raw.split(/\s+and\s+/i)[0] ?? '').replace(/[\s+]/g, '');
  return `+${first.replace(/^0+/, '')}`;
}

async function seedCountries(db: Queryable): Promise<void> {
  const countries = Country.getAllCountries().map((c) => ({
    code: c.isoCode,
    name: c.name,
    phone_code: normalisePhoneCode(c.phonecode),
  }));
  const states = State.getAllStates().map((s) => ({ country_code: s.countryCode, code: s.isoCode, name: s.name }));
  // Both lists are static: when every row is already there, skip re-sending ~5,000 rows at each start.
  const present = await db.query<{ countries: number; states: number }>(
    'SELECT (SELECT count(*) FROM countries) AS countries, (SELECT count(*) FROM states) AS states',
  );
  if (present[0] && present[0].countries >= countries.length && present[0].states >= states.length) return;
  await db.query(
    `INSERT INTO countries (code, name, phone_code)
     SELECT code, name, phone_code FROM json_to_recordset($1::json) AS x(code text, name text, phone_code text)
     ON CONFLICT (code) DO NOTHING`,
    [JSON.stringify(countries)],
  );
  // One statement per batch: a JSON array is one parameter, so a batch is not bound by the 65,535
  // parameter limit of multi-row VALUES, and parsing it server-side is faster than binding.
  for (let i = 0; i < states.length; i += 2500) {
    await db.query(
      `INSERT INTO states (country_code, code, name)
       SELECT country_code, code, name FROM json_to_recordset($1::json) AS x(country_code text, code text, name text)
       ON CONFLICT (country_code, code) DO NOTHING`,
      [JSON.stringify(states.slice(i, i + 2500))],
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Banners: images are small SVGs generated here and carried as data: URIs (no remote assets).

function bannerImage(hueA: number, hueB: number, motif: 'coins' | 'cards' | 'stars'): string {
  const shapes: string[] = [];
  for (let i = 0; i < 7; i++) {
    const x = 620 + ((i * 97) % 520);
    const y = 40 + ((i * 61) % 220);
    const r = 18 + ((i * 13) % 30);
    if (motif === 'coins') {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(45,90%,60%)" fill-opacity="0.85" stroke="hsl(40,80%,35%)" stroke-width="4"/>`);
    } else if (motif === 'cards') {
      shapes.push(`<rect x="${x}" y="${y}" width="${r * 1.6}" height="${r * 2.2}" rx="6" fill="#fff" fill-opacity="0.9" transform="rotate(${(i * 17) % 40 - 20} ${x} ${y})"/>`);
    } else {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${r / 4}" fill="#fff" fill-opacity="0.8"/>`);
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300" viewBox="0 0 1200 300">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hueA},70%,35%)"/><stop offset="1" stop-color="hsl(${hueB},75%,20%)"/>` +
    `</linearGradient></defs><rect width="1200" height="300" fill="url(#g)"/>${shapes.join('')}</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

async function seedBanners(db: Queryable): Promise<void> {
  const banners = [
    { key: 'welcome-bonus', title: 'Welcome bonus', subtitle: 'Claim your joining bonus and start playing.', image_url: bannerImage(270, 310, 'coins'), link_url: '/bonus', sort_order: 1 },
    { key: 'live-casino', title: 'Live casino', subtitle: 'Real dealers, real tables, around the clock.', image_url: bannerImage(200, 250, 'cards'), link_url: '/live-casino', sort_order: 2 },
    { key: 'refer-a-friend', title: 'Refer a friend', subtitle: 'Invite friends and earn a referral reward.', image_url: bannerImage(150, 200, 'stars'), link_url: '/refer-a-friend', sort_order: 3 },
  ];
  await db.query(
    `INSERT INTO banners (key, title, subtitle, image_url, link_url, sort_order, active)
     SELECT key, title, subtitle, image_url, link_url, sort_order, true
     FROM json_to_recordset($1::json) AS x(key text, title text, subtitle text, image_url text, link_url text, sort_order int)
     ON CONFLICT (key) DO NOTHING`,
    [JSON.stringify(banners)],
  );
}

// ---------------------------------------------------------------------------------------------------
// Content pages in English, Portuguese and Spanish (safe HTML: p, h2, ul, li, strong, a)

interface PageFigures {
  siteName: string;
  supportEmail: string;
  minDeposit: string;
  minWithdraw: string;
  withdrawFee: string;
  maxAmount: string;
  confirmations: number;
}

type PageSlug = 'faq' | 'terms' | 'privacy' | 'about' | 'support';
type Locale = 'en' | 'pt' | 'es';
type PageSet = Record<PageSlug, { title: string; content: string }>;

const html = (...parts: string[]): string => parts.join('\n');
const mail = (address: string): string => `<a href="mailto:${address}">${address}</a>`;

function englishPages(f: PageFigures): PageSet {
  return {
    faq: {
      title: 'Frequently asked questions',
      content: html(
        '<h2>Deposits</h2>',
        '<p><strong>How do I deposit?</strong></p>',
        '<p>Open your wallet, choose Deposit, pick the currency and the payment provider, and send coins to the address shown. Always check that you send on the network shown next to the address.</p>',
        '<p><strong>When is my deposit credited?</strong></p>',
        `<p>Deposits are credited after ${f.confirmations} network confirmations. Until then the amount shows as pending in your wallet.</p>`,
        '<p><strong>Is there a minimum deposit?</strong></p>',
        `<p>Yes. The minimum deposit is <strong>${f.minDeposit} LTC</strong>. Deposits below the minimum are not credited and cannot be refunded.</p>`,
        '<h2>Withdrawals</h2>',
        '<p><strong>What is the minimum withdrawal?</strong></p>',
        `<p>The minimum withdrawal is <strong>${f.minWithdraw} LTC</strong>, and a single request can be at most ${f.maxAmount}.</p>`,
        '<p><strong>Is there a withdrawal fee?</strong></p>',
        `<p>Yes. Each withdrawal carries a fee of <strong>${f.withdrawFee} LTC</strong>.</p>`,
        '<p><strong>Why is my withdrawal pending?</strong></p>',
        '<p>Withdrawals are reviewed before they are sent. You can have one pending withdrawal request at a time; wait for it to complete before asking for another.</p>',
        '<h2>Account and security</h2>',
        '<p><strong>Why must I verify my identity?</strong></p>',
        '<p>We are required to know who our players are. Upload your documents from your profile as JPG, PNG or PDF files under 5 MB. Submitted documents cannot be edited while they are under review.</p>',
        '<p><strong>How old must I be to play?</strong></p>',
        '<p>You must be over 18 years old, or older where the law of your country requires it.</p>',
        '<p><strong>Can I limit my play?</strong></p>',
        '<p>Yes. Under Responsible gambling you can set daily, weekly and monthly limits for deposits, bets and losses, or exclude yourself temporarily or permanently.</p>',
        '<h2>Bonuses</h2>',
        '<p><strong>How do bonuses work?</strong></p>',
        '<p>Claim a bonus from the Bonus page. A bonus must be wagered the required amount before it can be cashed out, and you may forfeit an active bonus at any time.</p>',
      ),
    },
    terms: {
      title: 'Terms and conditions',
      content: html(
        '<h2>1. Acceptance</h2>',
        `<p>By opening an account or using ${f.siteName} you accept these terms. If you do not agree with them, do not use the service.</p>`,
        '<h2>2. Eligibility</h2>',
        '<ul>',
        '<li>You must be over 18 years old and legally allowed to gamble where you live.</li>',
        '<li>You may hold one account only, and the information you give must be true and complete.</li>',
        '<li>We may ask you to verify your identity and may suspend an account until it is verified.</li>',
        '</ul>',
        '<h2>3. Deposits and withdrawals</h2>',
        '<ul>',
        `<li>Deposits are credited after ${f.confirmations} network confirmations.</li>`,
        `<li>The minimum deposit is ${f.minDeposit} LTC; smaller deposits are neither credited nor refunded.</li>`,
        `<li>The minimum withdrawal is ${f.minWithdraw} LTC and a withdrawal fee of ${f.withdrawFee} LTC applies.</li>`,
        `<li>A single deposit or withdrawal can be at most ${f.maxAmount}, with up to 8 decimals.</li>`,
        '<li>Sending coins on the wrong network or to the wrong address may cause a permanent loss that we cannot recover.</li>',
        '</ul>',
        '<h2>4. Bonuses</h2>',
        '<p>Each bonus has its own wagering requirement and validity period. Cashing out is not allowed while a bonus is being wagered. Abuse of bonuses, including multiple accounts, leads to their cancellation.</p>',
        '<h2>5. Responsible gambling</h2>',
        '<p>You can set deposit, bet and loss limits and exclude yourself at any time. Self-exclusion closes your access for the chosen period.</p>',
        '<h2>6. Account closure</h2>',
        '<p>We may deactivate an account that breaks these terms. Funds not linked to a breach are returned to the player.</p>',
        '<h2>7. Changes to these terms</h2>',
        '<p>Terms updates take effect a minimum of two weeks after announcement. Continuing to play after that date means you accept the updated terms.</p>',
        '<h2>8. Contact</h2>',
        `<p>Questions about these terms can be sent to ${mail(f.supportEmail)}.</p>`,
      ),
    },
    privacy: {
      title: 'Privacy policy',
      content: html(
        '<h2>What we collect</h2>',
        '<ul>',
        '<li>Account data: name, email, username, date of birth, gender, phone and address.</li>',
        '<li>Identity documents you upload for verification.</li>',
        '<li>Wallet activity: deposits, withdrawals, bets and bonuses.</li>',
        '<li>Technical data needed to keep your session secure.</li>',
        '</ul>',
        '<h2>Why we use it</h2>',
        '<p>To run your account, process payments, verify identity, prevent fraud, apply your responsible-gambling limits and meet our legal duties.</p>',
        '<h2>What is stored on your device</h2>',
        '<p>Your browser keeps your access token and your chosen language. Logging out removes them.</p>',
        '<h2>Sharing</h2>',
        '<p>We share data only with the payment provider that processes your transactions and where the law requires it. We never sell your data.</p>',
        '<h2>Your rights</h2>',
        `<p>You may ask for a copy of your data, its correction or its deletion where the law allows, by writing to ${mail(f.supportEmail)}.</p>`,
      ),
    },
    about: {
      title: 'About us',
      content: html(
        `<p><strong>${f.siteName}</strong> is an online casino built for cryptocurrency players.</p>`,
        '<h2>What we offer</h2>',
        '<ul>',
        '<li>Slots, table games, blackjack, poker, live casino, video poker and sports.</li>',
        '<li>Wallets in Litecoin, Bitcoin, Ethereum and Tether, with deposits and withdrawals through our payment provider.</li>',
        '<li>Bonuses for joining, daily play, deposits, loyalty and referring friends.</li>',
        '<li>The site in English, Portuguese and Spanish.</li>',
        '</ul>',
        '<h2>Play responsibly</h2>',
        '<p>Gambling should be fun. Use the limits and self-exclusion tools in your account whenever you need them.</p>',
      ),
    },
    support: {
      title: 'Support',
      content: html(
        '<h2>Contact us</h2>',
        `<p>Write to ${mail(f.supportEmail)}. We answer every message, usually within 24 hours.</p>`,
        '<h2>Before you write</h2>',
        '<ul>',
        `<li>Deposits appear after ${f.confirmations} network confirmations; please wait for them before asking about a deposit.</li>`,
        `<li>Deposits below ${f.minDeposit} LTC are not credited.</li>`,
        '<li>Include your username and, for payments, the transaction ID.</li>',
        '<li>Never send your password: our team will never ask for it.</li>',
        '</ul>',
      ),
    },
  };
}

function portuguesePages(f: PageFigures): PageSet {
  return {
    faq: {
      title: 'Perguntas frequentes',
      content: html(
        '<h2>Depósitos</h2>',
        '<p><strong>Como faço um depósito?</strong></p>',
        '<p>Abra a sua carteira, escolha Depositar, selecione a moeda e o fornecedor de pagamento e envie as moedas para o endereço indicado. Confirme sempre que envia pela rede indicada junto ao endereço.</p>',
        '<p><strong>Quando é creditado o meu depósito?</strong></p>',
        `<p>Os depósitos são creditados após ${f.confirmations} confirmações da rede. Até lá, o valor aparece como pendente na sua carteira.</p>`,
        '<p><strong>Existe um depósito mínimo?</strong></p>',
        `<p>Sim. O depósito mínimo é de <strong>${f.minDeposit} LTC</strong>. Depósitos abaixo do mínimo não são creditados nem reembolsados.</p>`,
        '<h2>Levantamentos</h2>',
        '<p><strong>Qual é o levantamento mínimo?</strong></p>',
        `<p>O levantamento mínimo é de <strong>${f.minWithdraw} LTC</strong> e cada pedido pode ser no máximo de ${f.maxAmount}.</p>`,
        '<p><strong>Existe uma taxa de levantamento?</strong></p>',
        `<p>Sim. Cada levantamento tem uma taxa de <strong>${f.withdrawFee} LTC</strong>.</p>`,
        '<p><strong>Porque está o meu levantamento pendente?</strong></p>',
        '<p>Os levantamentos são revistos antes de serem enviados. Só pode ter um pedido de levantamento pendente de cada vez; aguarde que termine antes de pedir outro.</p>',
        '<h2>Conta e segurança</h2>',
        '<p><strong>Porque tenho de verificar a minha identidade?</strong></p>',
        '<p>Somos obrigados a saber quem são os nossos jogadores. Envie os seus documentos a partir do perfil, em ficheiros JPG, PNG ou PDF com menos de 5 MB. Os documentos enviados não podem ser alterados enquanto estão em análise.</p>',
        '<p><strong>Que idade preciso de ter para jogar?</strong></p>',
        '<p>Tem de ter mais de 18 anos, ou mais se a lei do seu país o exigir.</p>',
        '<p><strong>Posso limitar o meu jogo?</strong></p>',
        '<p>Sim. Em Jogo responsável pode definir limites diários, semanais e mensais de depósitos, apostas e perdas, ou autoexcluir-se temporária ou permanentemente.</p>',
        '<h2>Bónus</h2>',
        '<p><strong>Como funcionam os bónus?</strong></p>',
        '<p>Reclame um bónus na página Bónus. Um bónus tem de ser apostado o montante exigido antes de poder ser levantado, e pode abdicar de um bónus ativo a qualquer momento.</p>',
      ),
    },
    terms: {
      title: 'Termos e condições',
      content: html(
        '<h2>1. Aceitação</h2>',
        `<p>Ao abrir uma conta ou utilizar o ${f.siteName}, aceita estes termos. Se não concordar com eles, não utilize o serviço.</p>`,
        '<h2>2. Elegibilidade</h2>',
        '<ul>',
        '<li>Tem de ter mais de 18 anos e poder jogar legalmente onde vive.</li>',
        '<li>Só pode ter uma conta, e os dados que fornece têm de ser verdadeiros e completos.</li>',
        '<li>Podemos pedir-lhe que verifique a sua identidade e suspender a conta até estar verificada.</li>',
        '</ul>',
        '<h2>3. Depósitos e levantamentos</h2>',
        '<ul>',
        `<li>Os depósitos são creditados após ${f.confirmations} confirmações da rede.</li>`,
        `<li>O depósito mínimo é de ${f.minDeposit} LTC; depósitos inferiores não são creditados nem reembolsados.</li>`,
        `<li>O levantamento mínimo é de ${f.minWithdraw} LTC e aplica-se uma taxa de levantamento de ${f.withdrawFee} LTC.</li>`,
        `<li>Cada depósito ou levantamento pode ser no máximo de ${f.maxAmount}, com até 8 casas decimais.</li>`,
        '<li>Enviar moedas pela rede errada ou para o endereço errado pode causar uma perda definitiva que não conseguimos recuperar.</li>',
        '</ul>',
        '<h2>4. Bónus</h2>',
        '<p>Cada bónus tem o seu próprio requisito de apostas e prazo de validade. Não é permitido levantar enquanto um bónus está a ser apostado. O abuso de bónus, incluindo contas múltiplas, leva ao seu cancelamento.</p>',
        '<h2>5. Jogo responsável</h2>',
        '<p>Pode definir limites de depósito, aposta e perda e autoexcluir-se a qualquer momento. A autoexclusão bloqueia o seu acesso durante o período escolhido.</p>',
        '<h2>6. Encerramento da conta</h2>',
        '<p>Podemos desativar uma conta que viole estes termos. Os fundos não relacionados com a violação são devolvidos ao jogador.</p>',
        '<h2>7. Alterações a estes termos</h2>',
        '<p>As atualizações dos termos entram em vigor no mínimo duas semanas após o seu anúncio. Continuar a jogar depois dessa data significa que aceita os termos atualizados.</p>',
        '<h2>8. Contacto</h2>',
        `<p>Pode enviar questões sobre estes termos para ${mail(f.supportEmail)}.</p>`,
      ),
    },
    privacy: {
      title: 'Política de privacidade',
      content: html(
        '<h2>Que dados recolhemos</h2>',
        '<ul>',
        '<li>Dados da conta: nome, email, nome de utilizador, data de nascimento, género, telefone e morada.</li>',
        '<li>Documentos de identificação que envia para verificação.</li>',
        '<li>Atividade da carteira: depósitos, levantamentos, apostas e bónus.</li>',
        '<li>Dados técnicos necessários para manter a sua sessão segura.</li>',
        '</ul>',
        '<h2>Para que os usamos</h2>',
        '<p>Para gerir a sua conta, processar pagamentos, verificar a identidade, prevenir fraude, aplicar os seus limites de jogo responsável e cumprir as nossas obrigações legais.</p>',
        '<h2>O que fica guardado no seu dispositivo</h2>',
        '<p>O seu navegador guarda o seu token de acesso e o idioma escolhido. Terminar a sessão remove-os.</p>',
        '<h2>Partilha</h2>',
        '<p>Só partilhamos dados com o fornecedor de pagamentos que processa as suas transações e quando a lei o exige. Nunca vendemos os seus dados.</p>',
        '<h2>Os seus direitos</h2>',
        `<p>Pode pedir uma cópia dos seus dados, a sua correção ou a sua eliminação, nos termos da lei, escrevendo para ${mail(f.supportEmail)}.</p>`,
      ),
    },
    about: {
      title: 'Sobre nós',
      content: html(
        `<p>O <strong>${f.siteName}</strong> é um casino online criado para jogadores de criptomoedas.</p>`,
        '<h2>O que oferecemos</h2>',
        '<ul>',
        '<li>Slots, jogos de mesa, blackjack, póquer, casino ao vivo, vídeo póquer e desporto.</li>',
        '<li>Carteiras em Litecoin, Bitcoin, Ethereum e Tether, com depósitos e levantamentos através do nosso fornecedor de pagamentos.</li>',
        '<li>Bónus de adesão, jogo diário, depósito, fidelidade e por convidar amigos.</li>',
        '<li>O site em inglês, português e espanhol.</li>',
        '</ul>',
        '<h2>Jogue com responsabilidade</h2>',
        '<p>O jogo deve ser divertido. Use os limites e a autoexclusão da sua conta sempre que precisar.</p>',
      ),
    },
    support: {
      title: 'Apoio',
      content: html(
        '<h2>Contacte-nos</h2>',
        `<p>Escreva para ${mail(f.supportEmail)}. Respondemos a todas as mensagens, normalmente em 24 horas.</p>`,
        '<h2>Antes de escrever</h2>',
        '<ul>',
        `<li>Os depósitos aparecem após ${f.confirmations} confirmações da rede; aguarde por elas antes de perguntar por um depósito.</li>`,
        `<li>Depósitos inferiores a ${f.minDeposit} LTC não são creditados.</li>`,
        '<li>Indique o seu nome de utilizador e, para pagamentos, o ID da transação.</li>',
        '<li>Nunca envie a sua palavra-passe: a nossa equipa nunca a pede.</li>',
        '</ul>',
      ),
    },
  };
}

function spanishPages(f: PageFigures): PageSet {
  return {
    faq: {
      title: 'Preguntas frecuentes',
      content: html(
        '<h2>Depósitos</h2>',
        '<p><strong>¿Cómo hago un depósito?</strong></p>',
        '<p>Abre tu billetera, elige Depositar, selecciona la moneda y el proveedor de pago y envía las monedas a la dirección indicada. Comprueba siempre que envías por la red indicada junto a la dirección.</p>',
        '<p><strong>¿Cuándo se acredita mi depósito?</strong></p>',
        `<p>Los depósitos se acreditan tras ${f.confirmations} confirmaciones de la red. Hasta entonces, el importe aparece como pendiente en tu billetera.</p>`,
        '<p><strong>¿Hay un depósito mínimo?</strong></p>',
        `<p>Sí. El depósito mínimo es de <strong>${f.minDeposit} LTC</strong>. Los depósitos por debajo del mínimo no se acreditan ni se reembolsan.</p>`,
        '<h2>Retiros</h2>',
        '<p><strong>¿Cuál es el retiro mínimo?</strong></p>',
        `<p>El retiro mínimo es de <strong>${f.minWithdraw} LTC</strong> y cada solicitud puede ser como máximo de ${f.maxAmount}.</p>`,
        '<p><strong>¿Hay una comisión de retiro?</strong></p>',
        `<p>Sí. Cada retiro tiene una comisión de <strong>${f.withdrawFee} LTC</strong>.</p>`,
        '<p><strong>¿Por qué mi retiro está pendiente?</strong></p>',
        '<p>Los retiros se revisan antes de enviarse. Solo puedes tener una solicitud de retiro pendiente a la vez; espera a que termine antes de pedir otra.</p>',
        '<h2>Cuenta y seguridad</h2>',
        '<p><strong>¿Por qué debo verificar mi identidad?</strong></p>',
        '<p>Estamos obligados a saber quiénes son nuestros jugadores. Sube tus documentos desde tu perfil en archivos JPG, PNG o PDF de menos de 5 MB. Los documentos enviados no se pueden modificar mientras están en revisión.</p>',
        '<p><strong>¿Qué edad necesito para jugar?</strong></p>',
        '<p>Debes ser mayor de 18 años, o más si la ley de tu país lo exige.</p>',
        '<p><strong>¿Puedo limitar mi juego?</strong></p>',
        '<p>Sí. En Juego responsable puedes fijar límites diarios, semanales y mensuales de depósitos, apuestas y pérdidas, o autoexcluirte de forma temporal o permanente.</p>',
        '<h2>Bonos</h2>',
        '<p><strong>¿Cómo funcionan los bonos?</strong></p>',
        '<p>Reclama un bono en la página Bonos. Un bono debe apostarse por el importe exigido antes de poder retirarse, y puedes renunciar a un bono activo en cualquier momento.</p>',
      ),
    },
    terms: {
      title: 'Términos y condiciones',
      content: html(
        '<h2>1. Aceptación</h2>',
        `<p>Al abrir una cuenta o usar ${f.siteName} aceptas estos términos. Si no estás de acuerdo con ellos, no uses el servicio.</p>`,
        '<h2>2. Requisitos</h2>',
        '<ul>',
        '<li>Debes ser mayor de 18 años y poder jugar legalmente donde vives.</li>',
        '<li>Solo puedes tener una cuenta, y los datos que facilitas deben ser verdaderos y completos.</li>',
        '<li>Podemos pedirte que verifiques tu identidad y suspender la cuenta hasta que esté verificada.</li>',
        '</ul>',
        '<h2>3. Depósitos y retiros</h2>',
        '<ul>',
        `<li>Los depósitos se acreditan tras ${f.confirmations} confirmaciones de la red.</li>`,
        `<li>El depósito mínimo es de ${f.minDeposit} LTC; los depósitos inferiores no se acreditan ni se reembolsan.</li>`,
        `<li>El retiro mínimo es de ${f.minWithdraw} LTC y se aplica una comisión de retiro de ${f.withdrawFee} LTC.</li>`,
        `<li>Cada depósito o retiro puede ser como máximo de ${f.maxAmount}, con hasta 8 decimales.</li>`,
        '<li>Enviar monedas por la red equivocada o a una dirección equivocada puede causar una pérdida definitiva que no podemos recuperar.</li>',
        '</ul>',
        '<h2>4. Bonos</h2>',
        '<p>Cada bono tiene su propio requisito de apuesta y plazo de validez. No se permite retirar mientras se está apostando un bono. El abuso de bonos, incluidas las cuentas múltiples, conlleva su cancelación.</p>',
        '<h2>5. Juego responsable</h2>',
        '<p>Puedes fijar límites de depósito, apuesta y pérdida y autoexcluirte en cualquier momento. La autoexclusión bloquea tu acceso durante el periodo elegido.</p>',
        '<h2>6. Cierre de la cuenta</h2>',
        '<p>Podemos desactivar una cuenta que incumpla estos términos. Los fondos no vinculados al incumplimiento se devuelven al jugador.</p>',
        '<h2>7. Cambios en estos términos</h2>',
        '<p>Las actualizaciones de los términos entran en vigor como mínimo dos semanas después de su anuncio. Seguir jugando después de esa fecha significa que aceptas los términos actualizados.</p>',
        '<h2>8. Contacto</h2>',
        `<p>Puedes enviar tus preguntas sobre estos términos a ${mail(f.supportEmail)}.</p>`,
      ),
    },
    privacy: {
      title: 'Política de privacidad',
      content: html(
        '<h2>Qué datos recogemos</h2>',
        '<ul>',
        '<li>Datos de la cuenta: nombre, correo electrónico, nombre de usuario, fecha de nacimiento, género, teléfono y dirección.</li>',
        '<li>Los documentos de identidad que subes para la verificación.</li>',
        '<li>Actividad de la billetera: depósitos, retiros, apuestas y bonos.</li>',
        '<li>Datos técnicos necesarios para mantener segura tu sesión.</li>',
        '</ul>',
        '<h2>Para qué los usamos</h2>',
        '<p>Para gestionar tu cuenta, procesar pagos, verificar tu identidad, prevenir el fraude, aplicar tus límites de juego responsable y cumplir nuestras obligaciones legales.</p>',
        '<h2>Qué se guarda en tu dispositivo</h2>',
        '<p>Tu navegador guarda tu token de acceso y el idioma elegido. Al cerrar sesión se eliminan.</p>',
        '<h2>Cesión de datos</h2>',
        '<p>Solo compartimos datos con el proveedor de pagos que procesa tus transacciones y cuando la ley lo exige. Nunca vendemos tus datos.</p>',
        '<h2>Tus derechos</h2>',
        `<p>Puedes pedir una copia de tus datos, su corrección o su eliminación, en los términos que permita la ley, escribiendo a ${mail(f.supportEmail)}.</p>`,
      ),
    },
    about: {
      title: 'Quiénes somos',
      content: html(
        `<p><strong>${f.siteName}</strong> es un casino en línea creado para jugadores de criptomonedas.</p>`,
        '<h2>Qué ofrecemos</h2>',
        '<ul>',
        '<li>Tragamonedas, juegos de mesa, blackjack, póquer, casino en vivo, videopóquer y deportes.</li>',
        '<li>Billeteras en Litecoin, Bitcoin, Ethereum y Tether, con depósitos y retiros a través de nuestro proveedor de pagos.</li>',
        '<li>Bonos de bienvenida, por juego diario, por depósito, de fidelidad y por invitar a amigos.</li>',
        '<li>El sitio en inglés, portugués y español.</li>',
        '</ul>',
        '<h2>Juega con responsabilidad</h2>',
        '<p>El juego debe ser divertido. Usa los límites y la autoexclusión de tu cuenta siempre que los necesites.</p>',
      ),
    },
    support: {
      title: 'Soporte',
      content: html(
        '<h2>Contáctanos</h2>',
        `<p>Escribe a ${mail(f.supportEmail)}. Respondemos a todos los mensajes, normalmente en 24 horas.</p>`,
        '<h2>Antes de escribir</h2>',
        '<ul>',
        `<li>Los depósitos aparecen tras ${f.confirmations} confirmaciones de la red; espéralas antes de preguntar por un depósito.</li>`,
        `<li>Los depósitos inferiores a ${f.minDeposit} LTC no se acreditan.</li>`,
        '<li>Indica tu nombre de usuario y, para pagos, el ID de la transacción.</li>',
        '<li>Nunca envíes tu contraseña: nuestro equipo nunca te la pedirá.</li>',
        '</ul>',
      ),
    },
  };
}

async function seedPages(db: Queryable): Promise<void> {
  const figures: PageFigures = {
    siteName: SITE_NAME,
    supportEmail: SUPPORT_EMAIL,
    minDeposit: formatAmount(MIN_DEPOSIT_LTC),
    minWithdraw: formatAmount(MIN_WITHDRAW_LTC),
    withdrawFee: formatAmount(WITHDRAW_FEE_LTC),
    maxAmount: formatAmount(MAX_TRANSFER_AMOUNT),
    confirmations: DEPOSIT_CONFIRMATIONS,
  };
  const sets: Record<Locale, PageSet> = {
    en: englishPages(figures),
    pt: portuguesePages(figures),
    es: spanishPages(figures),
  };
  const rows = Object.entries(sets).flatMap(([locale, set]) =>
    Object.entries(set).map(([slug, page]) => ({ slug, locale, title: page.title, content: page.content })),
  );
  // The text is maintained here: refresh it when it changed, leave updated_at alone when it did not.
  await db.query(
    `INSERT INTO pages (slug, locale, title, content)
     SELECT slug, locale, title, content FROM json_to_recordset($1::json) AS x(slug text, locale text, title text, content text)
     ON CONFLICT (slug, locale) DO UPDATE SET title = EXCLUDED.title, content = EXCLUDED.content, updated_at = now()
     WHERE pages.title IS DISTINCT FROM EXCLUDED.title OR pages.content IS DISTINCT FROM EXCLUDED.content`,
    [JSON.stringify(rows)],
  );
}

// ---------------------------------------------------------------------------------------------------
// Game catalogue: providers, categories and sub-categories, and generated games

interface CategorySeed {
  slug: string;
  name: string;
  /** Share of generated games in this category. */
  weight: number;
  subCategories: { slug: string; name: string; weight: number }[];
}

export const CATEGORY_SEED: readonly CategorySeed[] = [
  {
    slug: 'slots',
    name: 'Slots',
    weight: 55,
    subCategories: [
      { slug: 'classic', name: 'Classic Slots', weight: 20 },
      { slug: 'video', name: 'Video Slots', weight: 45 },
      { slug: 'megaways', name: 'Megaways', weight: 15 },
      { slug: 'jackpot', name: 'Jackpot Slots', weight: 15 },
    ],
  },
  {
    slug: 'table-games',
    name: 'Table Games',
    weight: 9,
    subCategories: [
      { slug: 'roulette', name: 'Roulette', weight: 45 },
      { slug: 'baccarat', name: 'Baccarat', weight: 35 },
      { slug: 'dice', name: 'Dice', weight: 20 },
    ],
  },
  {
    slug: 'blackjack',
    name: 'Blackjack',
    weight: 7,
    subCategories: [
      { slug: 'classic-blackjack', name: 'Classic Blackjack', weight: 60 },
      { slug: 'multi-hand', name: 'Multi-hand Blackjack', weight: 35 },
    ],
  },
  {
    slug: 'poker',
    name: 'Poker',
    weight: 6,
    subCategories: [
      { slug: 'casino-holdem', name: "Casino Hold'em", weight: 50 },
      { slug: 'three-card', name: 'Three Card Poker', weight: 40 },
    ],
  },
  {
    slug: 'live-casino',
    name: 'Live Casino',
    weight: 10,
    subCategories: [
      { slug: 'live-blackjack', name: 'Live Blackjack', weight: 35 },
      { slug: 'live-roulette', name: 'Live Roulette', weight: 35 },
      { slug: 'game-shows', name: 'Game Shows', weight: 30 },
    ],
  },
  {
    slug: 'video-poker',
    name: 'Video Poker',
    weight: 6,
    subCategories: [
      { slug: 'jacks-or-better', name: 'Jacks or Better', weight: 50 },
      { slug: 'deuces-wild', name: 'Deuces Wild', weight: 45 },
    ],
  },
  {
    slug: 'sports',
    name: 'Sports',
    weight: 7,
    subCategories: [
      { slug: 'virtual-football', name: 'Virtual Football', weight: 55 },
      { slug: 'virtual-racing', name: 'Virtual Racing', weight: 45 },
    ],
  },
];

/** Invented studio names; none is a real brand. `makes` lists the category slugs each one produces. */
export const PROVIDER_SEED: readonly { slug: string; name: string; makes: readonly string[] }[] = [
  { slug: 'lunar-forge', name: 'Lunar Forge', makes: ['slots', 'table-games', 'blackjack'] },
  { slug: 'copper-fox', name: 'Copper Fox Gaming', makes: ['slots', 'video-poker', 'poker'] },
  { slug: 'nebula-reels', name: 'Nebula Reels', makes: ['slots'] },
  { slug: 'tidewater', name: 'Tidewater Studios', makes: ['table-games', 'blackjack', 'poker', 'video-poker'] },
  { slug: 'quartz-owl', name: 'Quartz Owl', makes: ['slots', 'blackjack', 'video-poker'] },
  { slug: 'velvet-comet', name: 'Velvet Comet Live', makes: ['live-casino'] },
  { slug: 'pixel-harbor', name: 'Pixel Harbor', makes: ['sports', 'slots'] },
  { slug: 'emberline', name: 'Emberline Interactive', makes: ['slots', 'table-games', 'live-casino', 'sports'] },
];

/**
 * The built-in game provider's studio (server/games): its games run on the house engines. Kept apart from
 * PROVIDER_SEED, which the generated catalogue picks from: adding it there would change every game.
 */
export const HOUSE_PROVIDER = { slug: 'house', name: 'Crypto Casino Originals' } as const;

/** The house's own category, after the generated ones (whose order the generator depends on). */
export const ORIGINALS_CATEGORY = { slug: 'originals', name: 'Originals' } as const;

/** The engines of the house games. */
export type GameEngine = HouseGame;

/** The house's fixed games: the four originals, and a classic slot on the default skin (near the top of the listing). */
export const HOUSE_GAMES: readonly {
  identifier: string;
  name: string;
  engine: GameEngine;
  categorySlug: string;
  subCategorySlug: string | null;
  rtp: string;
  thumbnailHue: number;
  sortOrder: number;
}[] = [
  { identifier: 'house-dice', name: 'Dice', engine: 'dice', categorySlug: ORIGINALS_CATEGORY.slug, subCategorySlug: null, rtp: '99', thumbnailHue: 210, sortOrder: 2 },
  { identifier: 'house-limbo', name: 'Limbo', engine: 'limbo', categorySlug: ORIGINALS_CATEGORY.slug, subCategorySlug: null, rtp: '99', thumbnailHue: 280, sortOrder: 3 },
  { identifier: 'house-mines', name: 'Mines', engine: 'mines', categorySlug: ORIGINALS_CATEGORY.slug, subCategorySlug: null, rtp: '99', thumbnailHue: 140, sortOrder: 4 },
  { identifier: 'house-plinko', name: 'Plinko', engine: 'plinko', categorySlug: ORIGINALS_CATEGORY.slug, subCategorySlug: null, rtp: '99', thumbnailHue: 330, sortOrder: 5 },
  { identifier: 'house-classic-slot', name: 'Classic Slot', engine: 'slot', categorySlug: 'slots', subCategorySlug: 'classic', rtp: '96.5', thumbnailHue: 45, sortOrder: 6 },
];

/**
 * The engine a generated title runs on: every slot is a skin of the slot engine and the dice tables run
 * Dice; roulette, baccarat, cards, live dealers and sports have no engine that could honestly stand in.
 */
/**
 * A slot title's skin of the slot engine (src/fairness/slot.ts): its own symbols, reels and paytable, from a
 * seed derived from its identifier (FNV-1a) and tuned to its rtp ('96.45' → 9645).
 */
export function skinOfGame(identifier: string, rtp: string | null): SlotSkin {
  let hash = 0x811c9dc5;
  for (let i = 0; i < identifier.length; i++) hash = Math.imul(hash ^ identifier.charCodeAt(i), 0x01000193) >>> 0;
  const [whole = '96', fraction = ''] = (rtp ?? '96.5').split('.');
  const hundredths = Math.min(9900, Math.max(8500, Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2))));
  return slotSkin(hash, hundredths);
}

export function engineOf(categorySlug: string, subCategorySlug: string | null): GameEngine | null {
  if (categorySlug === 'slots') return 'slot';
  if (subCategorySlug === 'dice') return 'dice';
  return null;
}

async function seedCatalogue(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO providers (name, slug, active)
     SELECT name, slug, true FROM json_to_recordset($1::json) AS x(name text, slug text)
     ON CONFLICT (slug) DO NOTHING`,
    [JSON.stringify([...PROVIDER_SEED, HOUSE_PROVIDER].map((p) => ({ name: p.name, slug: p.slug })))],
  );
  await db.query(
    `INSERT INTO categories (name, slug, sort_order)
     SELECT name, slug, sort_order FROM json_to_recordset($1::json) AS x(name text, slug text, sort_order int)
     ON CONFLICT (slug) DO NOTHING`,
    [JSON.stringify([...CATEGORY_SEED, ORIGINALS_CATEGORY].map((c, i) => ({ name: c.name, slug: c.slug, sort_order: i + 1 })))],
  );
  const subCategories = CATEGORY_SEED.flatMap((c) =>
    c.subCategories.map((s, i) => ({ category_slug: c.slug, name: s.name, slug: s.slug, sort_order: i + 1 })),
  );
  await db.query(
    `INSERT INTO sub_categories (category_id, name, slug, sort_order)
     SELECT c.id, x.name, x.slug, x.sort_order
     FROM json_to_recordset($1::json) AS x(category_slug text, name text, slug text, sort_order int)
     JOIN categories c ON c.slug = x.category_slug
     ORDER BY c.sort_order, x.sort_order
     ON CONFLICT (category_id, slug) DO NOTHING`,
    [JSON.stringify(subCategories)],
  );
}

/** mulberry32: a small, fast, well-distributed 32-bit PRNG; deterministic for a given seed. */
function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PRNG for game number `index`: each game depends only on (seed, index), never on batch boundaries. */
function gameRandom(seed: number, index: number): () => number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return mulberry32(h ^ (h >>> 16));
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function pickWeighted<T extends { weight: number }>(random: () => number, items: readonly T[]): T {
  const total = items.reduce((acc, item) => acc + item.weight, 0);
  let r = random() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return pick(random, items);
}

const ADJECTIVES = [
  'Golden', 'Wild', 'Lucky', 'Mystic', 'Neon', 'Royal', 'Frozen', 'Burning', 'Ancient', 'Cosmic', 'Emerald',
  'Crimson', 'Silver', 'Midnight', 'Thunder', 'Sunny', 'Jolly', 'Savage', 'Sacred', 'Velvet', 'Hidden',
  'Electric', 'Sweet', 'Iron', 'Jade', 'Stormy', 'Blazing', 'Lost', 'Starlit', 'Copper',
] as const;
const NOUNS = [
  'Dragon', 'Pharaoh', 'Lotus', 'Tiger', 'Fruits', 'Gems', 'Vikings', 'Treasure', 'Phoenix', 'Jungle',
  'Pirates', 'Panda', 'Wolf', 'Samurai', 'Temple', 'Reef', 'Comet', 'Cherries', 'Bandit', 'Fortune',
  'Kraken', 'Oasis', 'Citadel', 'Lantern', 'Safari', 'Genie', 'Galaxy', 'Volcano', 'Carnival', 'Griffin',
] as const;
const SLOT_FLOURISHES = [' Deluxe', ' Rising', ' Unleashed', ' Hold & Win', ' Returns', ' Xtreme', ' 2', ' Quest', ''] as const;
const EDITIONS = ['Pro', 'Gold', 'VIP', 'Classic', 'Deluxe', 'Royale', 'Express', 'Elite'] as const;
const TRACKS = ['Derby', 'Downs', 'Park', 'Meadows', 'Grand Prix', 'Cup'] as const;
const LEAGUES = ['Premier', 'Continental', 'Champions', 'World', 'Island', 'Coastal'] as const;

function gameName(random: () => number, subSlug: string | null, categorySlug: string): string {
  const adj = () => pick(random, ADJECTIVES);
  const noun = () => pick(random, NOUNS);
  const edition = () => pick(random, EDITIONS);
  switch (subSlug) {
    case 'classic':
      return pick(random, [`${adj()} 7s`, `${adj()} Bars`, `${adj()} Cherries`, `Triple ${adj()} Sevens`]);
    case 'video':
      return random() < 0.25 ? `${noun()}'s ${noun()}` : `${adj()} ${noun()}${pick(random, SLOT_FLOURISHES)}`;
    case 'megaways':
      return `${adj()} ${noun()} ${pick(random, ['Ways', 'Max Ways', 'Cascade'])}`;
    case 'jackpot':
      return pick(random, [`${adj()} ${noun()} Jackpot`, `Mega ${noun()} Jackpot`, `${noun()} Jackpot Vault`]);
    case 'roulette':
      return `${pick(random, ['European', 'French', 'American', 'Mini', 'Double Ball', 'Multi-Wheel'])} Roulette ${edition()}`;
    case 'baccarat':
      return `${pick(random, ['Punto Banco', 'No Commission', 'Mini', 'Squeeze', 'Speed'])} Baccarat ${edition()}`;
    case 'dice':
      return pick(random, [`Sic Bo ${edition()}`, `Craps ${edition()}`, `${adj()} Dice`]);
    case 'classic-blackjack':
      return `${pick(random, ['Classic', 'European', 'Atlantic', 'Vegas', 'Single Deck', 'Double Exposure'])} Blackjack ${edition()}`;
    case 'multi-hand':
      return `Multi-Hand ${pick(random, ['Classic', 'European', 'Vegas', 'Atlantic'])} Blackjack ${edition()}`;
    case 'casino-holdem':
      return pick(random, [`Casino Hold'em ${edition()}`, `${adj()} Hold'em`]);
    case 'three-card':
      return pick(random, [`Three Card Poker ${edition()}`, `${adj()} Three Card Poker`]);
    case 'live-blackjack':
      return `Live ${pick(random, ['Classic', 'Speed', 'VIP', 'Lounge', 'Party'])} Blackjack ${1 + Math.floor(random() * 20)}`;
    case 'live-roulette':
      return `Live ${pick(random, ['European', 'Auto', 'Speed', 'Lounge', 'Double Ball'])} Roulette`;
    case 'game-shows':
      return pick(random, [`${adj()} Wheel Live`, `${noun()} Crazy Coins`, `${noun()} Drop Live`, `Deal or ${noun()}`]);
    case 'jacks-or-better':
      return pick(random, [`Jacks or Better ${edition()}`, `${pick(random, ['3', '10', '25', '50'])}-Hand Jacks or Better`]);
    case 'deuces-wild':
      return pick(random, [`Deuces Wild ${edition()}`, `Bonus Deuces Wild`, `Double Deuces ${edition()}`]);
    case 'virtual-football':
      return `Virtual ${pick(random, LEAGUES)} Football ${edition()}`;
    case 'virtual-racing':
      return `Virtual ${pick(random, ['Horse Racing', 'Greyhounds', 'Motor Racing', 'Cycling'])} ${pick(random, TRACKS)}`;
    default:
      // Games without a sub-category.
      switch (categorySlug) {
        case 'slots':
          return `${adj()} ${noun()}`;
        case 'table-games':
          return pick(random, [`Red Dog ${edition()}`, `War ${edition()}`, `Pai Gow ${edition()}`]);
        case 'blackjack':
          return `Blackjack Surrender ${edition()}`;
        case 'poker':
          return pick(random, [`Caribbean Stud ${edition()}`, `Texas Stud ${edition()}`]);
        case 'live-casino':
          return `Live ${pick(random, ['Baccarat', 'Dragon Tiger', 'Sic Bo', 'Poker'])} ${edition()}`;
        case 'video-poker':
          return `Joker Poker ${edition()}`;
        default:
          return `Virtual ${pick(random, ['Tennis', 'Basketball', 'Darts'])} ${edition()}`;
      }
  }
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** One generated game; a pure function of (seed, index) and the catalogue's slugs. */
export interface GeneratedGame {
  identifier: string;
  name: string;
  slug: string;
  providerSlug: string;
  categorySlug: string;
  subCategorySlug: string | null;
  hasDemo: boolean;
  devices: ('desktop' | 'mobile')[];
  rtp: string | null;
  thumbnailHue: number;
  sortOrder: number;
  /** The house engine the title runs on, or null (see {@link engineOf}). */
  engine: GameEngine | null;
}

export function generateGame(seed: number, index: number): GeneratedGame {
  const random = gameRandom(seed, index);
  const category = pickWeighted(random, CATEGORY_SEED);
  const sub = random() < 0.1 ? null : pickWeighted(random, category.subCategories);
  const makers = PROVIDER_SEED.filter((p) => p.makes.includes(category.slug));
  const provider = pick(random, makers.length > 0 ? makers : PROVIDER_SEED);
  const name = gameName(random, sub?.slug ?? null, category.slug);
  const slug = slugify(name);
  const live = category.slug === 'live-casino';
  const deviceRoll = random();
  const devices: ('desktop' | 'mobile')[] = deviceRoll < 0.08 ? ['desktop'] : deviceRoll < 0.12 ? ['mobile'] : ['desktop', 'mobile'];
  // Hundredths of a percent, as integers, so no float ever meets the NUMERIC column.
  const rtpHundredths = live || category.slug === 'sports' ? (random() < 0.5 ? null : 9500 + Math.floor(random() * 300)) : 9400 + Math.floor(random() * 450);
  const rtp = rtpHundredths === null ? null : `${Math.floor(rtpHundredths / 100)}.${String(rtpHundredths % 100).padStart(2, '0')}`;
  return {
    // Provider-prefixed slug; the game number keeps it unique when two generated names coincide.
    identifier: `${provider.slug}-${slug}-${index + 1}`,
    name,
    slug,
    providerSlug: provider.slug,
    categorySlug: category.slug,
    subCategorySlug: sub?.slug ?? null,
    hasDemo: !live && random() < 0.9,
    devices,
    rtp,
    thumbnailHue: Math.floor(random() * 360),
    sortOrder: Math.floor(random() * 10_000),
    engine: engineOf(category.slug, sub?.slug ?? null),
  };
}

/** Slot titles seeded before games had skins (migration 0013) get theirs; nothing to do on later runs. */
async function backfillSlotSkins(db: Queryable): Promise<void> {
  for (;;) {
    const missing = await db.query<{ id: number; identifier: string; rtp: string | null }>(
      "SELECT id::int AS id, identifier, rtp::text AS rtp FROM games WHERE engine = 'slot' AND slot_skin IS NULL ORDER BY id LIMIT 2000",
    );
    if (missing.length === 0) return;
    await db.query(
      `UPDATE games g SET slot_skin = x.skin FROM json_to_recordset($1::json) AS x(id bigint, skin jsonb) WHERE g.id = x.id`,
      [JSON.stringify(missing.map((game) => ({ id: game.id, skin: skinOfGame(game.identifier, game.rtp) })))],
    );
  }
}

/** The house's fixed games, after the generated ones (so generated games keep their ids); returns how many were added. */
async function seedHouseGames(
  db: Queryable,
  catalogue: {
    providers: Map<string, number>;
    categories: Map<string, number>;
    subCategories: Map<string, number>;
    idOf: (map: Map<string, number>, key: string) => number;
  },
): Promise<number> {
  const { providers, categories, subCategories, idOf } = catalogue;
  const rows = HOUSE_GAMES.map((game) => {
    const categoryId = idOf(categories, game.categorySlug);
    return {
      identifier: game.identifier,
      name: game.name,
      slug: slugify(game.name),
      provider_id: idOf(providers, HOUSE_PROVIDER.slug),
      category_id: categoryId,
      sub_category_id: game.subCategorySlug === null ? null : idOf(subCategories, `${categoryId}/${game.subCategorySlug}`),
      rtp: game.rtp,
      thumbnail_hue: game.thumbnailHue,
      sort_order: game.sortOrder,
      engine: game.engine,
      slot_skin: game.engine === 'slot' ? DEFAULT_SLOT_SKIN : null,
    };
  });
  const result = await db.query<{ count: number }>(
    `WITH added AS (
       INSERT INTO games (identifier, name, slug, provider_id, category_id, sub_category_id, has_demo, devices, rtp, thumbnail_hue, sort_order,
         engine, slot_skin)
       SELECT identifier, name, slug, provider_id, category_id, sub_category_id, true, ARRAY['desktop', 'mobile'], rtp, thumbnail_hue, sort_order,
         engine, slot_skin
       FROM json_to_recordset($1::json) AS x(identifier text, name text, slug text, provider_id int, category_id int, sub_category_id int,
         rtp numeric, thumbnail_hue int, sort_order int, engine text, slot_skin jsonb)
       ON CONFLICT (identifier) DO NOTHING
       RETURNING 1
     )
     SELECT count(*) AS count FROM added`,
    [JSON.stringify(rows)],
  );
  return result[0]?.count ?? 0;
}

export interface SeedGamesOptions {
  /** PRNG seed: the same seed gives the same catalogue. Default {@link DEFAULT_CATALOGUE_SEED}. */
  seed?: number;
  /** Games per INSERT statement. Default 2000. */
  batchSize?: number;
}

export interface SeedGamesResult {
  inserted: number;
  total: number;
}

/**
 * Grows the catalogue to at least `count` generated games (never shrinks it), and adds the house's fixed
 * games (HOUSE_GAMES, not counted in `count`, `inserted` or `total`). Game number i is generated from
 * (seed, i) alone, so growing to 10,000 in one go or in steps yields the same catalogue.
 */
export async function seedGames(db: Queryable | Db, count: number, options: SeedGamesOptions = {}): Promise<SeedGamesResult> {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const seed = options.seed ?? DEFAULT_CATALOGUE_SEED;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 2000));
  await seedCatalogue(db);

  const providers = new Map(
    (await db.query<{ id: number; slug: string }>('SELECT id, slug FROM providers')).map((r) => [r.slug, r.id]),
  );
  const categories = new Map(
    (await db.query<{ id: number; slug: string }>('SELECT id, slug FROM categories')).map((r) => [r.slug, r.id]),
  );
  const subCategories = new Map(
    (await db.query<{ id: number; slug: string; category_id: number }>('SELECT id, slug, category_id FROM sub_categories')).map(
      (r) => [`${r.category_id}/${r.slug}`, r.id],
    ),
  );
  const idOf = (map: Map<string, number>, key: string): number => {
    const id = map.get(key);
    if (id === undefined) throw new Error(`catalogue entry ${key} is missing`);
    return id;
  };

  // Generated games only: game number i is generated from (seed, i), so the house's fixed games must not
  // count, or they would shift every generated game.
  let total =
    (
      await db.query<{ count: number }>(
        'SELECT count(*) AS count FROM games g JOIN providers p ON p.id = g.provider_id WHERE p.slug <> $1',
        [HOUSE_PROVIDER.slug],
      )
    )[0]?.count ?? 0;
  let next = total;
  let inserted = 0;
  // Indexes already used by an earlier run only conflict (ON CONFLICT); the bound stops a runaway loop.
  const lastIndex = count + total + batchSize;
  while (total < count && next < lastIndex) {
    const size = Math.min(batchSize, count - total);
    const rows = [];
    for (let i = next; i < next + size; i++) {
      const game = generateGame(seed, i);
      const categoryId = idOf(categories, game.categorySlug);
      rows.push({
        identifier: game.identifier,
        name: game.name,
        slug: game.slug,
        provider_id: idOf(providers, game.providerSlug),
        category_id: categoryId,
        sub_category_id: game.subCategorySlug === null ? null : idOf(subCategories, `${categoryId}/${game.subCategorySlug}`),
        has_demo: game.hasDemo,
        devices: game.devices,
        rtp: game.rtp,
        thumbnail_hue: game.thumbnailHue,
        sort_order: game.sortOrder,
        engine: game.engine,
        slot_skin: game.engine === 'slot' ? skinOfGame(game.identifier, game.rtp) : null,
      });
    }
    const result = await db.query<{ count: number }>(
      `WITH added AS (
         INSERT INTO games (identifier, name, slug, provider_id, category_id, sub_category_id, has_demo, devices, rtp, thumbnail_hue,
           sort_order, engine, slot_skin)
         SELECT identifier, name, slug, provider_id, category_id, sub_category_id, has_demo, devices, rtp, thumbnail_hue, sort_order, engine,
           slot_skin
         FROM json_to_recordset($1::json) AS x(identifier text, name text, slug text, provider_id int, category_id int,
           sub_category_id int, has_demo boolean, devices text[], rtp numeric, thumbnail_hue int, sort_order int, engine text, slot_skin jsonb)
         ON CONFLICT (identifier) DO NOTHING
         RETURNING 1
       )
       SELECT count(*) AS count FROM added`,
      [JSON.stringify(rows)],
    );
    const added = result[0]?.count ?? 0;
    inserted += added;
    total += added;
    next += size;
  }
  const houseAdded = await seedHouseGames(db, { providers, categories, subCategories, idOf });
  await backfillSlotSkins(db);
  if (inserted + houseAdded > 0 && 'exec' in db) {
    // Fresh statistics let the planner pick the listing indexes, and a fresh visibility map lets counts
    // be index-only scans; PGlite runs no autovacuum. VACUUM cannot run inside a transaction, hence a Db.
    await db.exec('VACUUM ANALYZE games');
  }
  return { inserted, total };
}
