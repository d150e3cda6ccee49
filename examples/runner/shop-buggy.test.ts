/**
 * The failing variant of the example: the same tests against the shop with its deliberate mistake (a coupon
 * taken off twice when paying). `walker run --shrink` reduces a long failing walk to the coupon and the payment.
 */
import { openShop } from './shop.test.js';

export * from './shop.test.js';

export function setUpRun(): void {
  openShop(true);
}
