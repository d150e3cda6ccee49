/**
 * The system under test of the runner's example: an in-memory shop with a cart, a coupon and payment. Prices
 * are in cents. `buggy` turns on a deliberate mistake: a coupon applied to a cart is charged twice off when the
 * cart is paid, so paying after a coupon fails; it takes two particular steps, the coupon and then paying.
 */
export class Shop {
  private readonly cart: number[] = [];
  private coupon = false;
  readonly receipts: number[] = [];

  constructor(
    private readonly buggy = false,
    readonly price = 1000,
  ) {}

  add(): void {
    this.cart.push(this.price);
  }

  remove(): void {
    if (this.cart.length === 0) throw new Error('the cart is empty');
    this.cart.pop();
    if (this.cart.length === 0) this.coupon = false;
  }

  applyCoupon(): void {
    if (this.coupon) throw new Error('a coupon was already applied');
    this.coupon = true;
  }

  get count(): number {
    return this.cart.length;
  }

  /** The cart's total: 10 % off with a coupon. */
  total(): number {
    const sum = this.cart.reduce((a, b) => a + b, 0);
    const off = this.coupon ? Math.round(sum / 10) : 0;
    return sum - (this.buggy ? 2 * off : off);
  }

  pay(): number {
    const total = this.total();
    this.receipts.push(total);
    this.cart.length = 0;
    this.coupon = false;
    return total;
  }
}
