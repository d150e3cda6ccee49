import assert from 'node:assert/strict';
import { Shop as ShopSystem } from './shop.js';

/** The variables of the model Shop, as the walk hands them to every step. */
interface ShopData {
  items: number;
  coupon: boolean;
  paid?: number;
}

/** Fresh for every run: the run makes the class once. */
let shop: ShopSystem;

/** Opens the shop under test; shop-buggy.test.ts opens the one with the deliberate mistake. */
export function openShop(buggy: boolean): void {
  shop = new ShopSystem(buggy);
}

export function setUpRun(): void {
  openShop(false);
}

export function tearDownRun(): void {
  assert.ok(shop.receipts.every((total) => total > 0), 'every receipt is positive');
}

/** The test of model Shop: a method per vertex and edge name. */
export class Shop {
  e_OpenShop(data: ShopData): void {
    assert.equal(shop.count, 0);
    data.paid = 0;
  }

  v_EmptyCart(data: ShopData): void {
    assert.equal(shop.count, 0);
    assert.equal(data.items, 0);
  }

  e_AddItem(): void {
    shop.add();
  }

  v_CartWithItems(data: ShopData): void {
    assert.equal(shop.count, data.items);
  }

  e_RemoveItem(): void {
    shop.remove();
  }

  e_ApplyCoupon(): void {
    shop.applyCoupon();
  }

  async e_Pay(data: ShopData): Promise<void> {
    const expected = data.items * shop.price - (data.coupon ? (data.items * shop.price) / 10 : 0);
    const total = await Promise.resolve(shop.pay());
    assert.equal(total, expected, `the total of ${data.items} items${data.coupon ? ' with a coupon' : ''}`);
    data.paid = (data.paid ?? 0) + 1;
  }

  v_Paid(data: ShopData): void {
    assert.equal(shop.count, 0);
    assert.ok((data.paid ?? 0) > 0);
  }

  e_ShopAgain(): void {}
}
