// A salted Phoenix table of orders with two global indexes, for the CLI's and the page's index
// tests (docs/phoenix.md walks the same table): BY_TIME on CREATED_AT, unsalted
// (SALT_BUCKETS=0: an index of a salted table is otherwise salted too) and split every 10 s of
// the generated workload's 100-s run, so each 10-s window's writes all land on the one index
// region holding that time; BY_CUSTOMER, covered, inheriting the table's 8 salt buckets.

/** The generated workload's clock: 100,000 writes at 1,000 a second from this instant (ms). */
export const START = 1_630_972_800_000;

/**
 * A positive whole number as Phoenix's DECIMAL bytes (PDecimal, for an integer): the
 * exponent byte 0xC0 + the number of base-100 digits, then each digit + 1, trailing zero
 * digits dropped. A nullable TIMESTAMP column is a DECIMAL of its milliseconds in an index.
 */
export function decimalHex(n) {
  let s = String(n);
  if (s.length % 2) s = `0${s}`;
  const digits = s.match(/../g).map(Number);
  const exponent = digits.length;
  while (digits.length && digits[digits.length - 1] === 0) digits.pop();
  return [0xc0 + exponent, ...digits.map(d => d + 1)].map(b => b.toString(16).padStart(2, '0')).join('');
}

/** BY_TIME's 9 split points: every 10 s of the run. */
export const POINTS = Array.from({ length: 9 }, (_, k) => `X'${decimalHex(START + (k + 1) * 10_000)}'`);

export const ORDERS_SQL = `CREATE TABLE orders (
    order_id VARCHAR NOT NULL PRIMARY KEY,
    customer_id VARCHAR,
    created_at TIMESTAMP,
    total DECIMAL(10, 2)
) SALT_BUCKETS = 8;
CREATE INDEX by_time ON orders (created_at) SALT_BUCKETS = 0 SPLIT ON (${POINTS.join(', ')});
CREATE INDEX by_customer ON orders (customer_id) INCLUDE (total);
`;
