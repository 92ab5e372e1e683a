// Amounts the UI shows together read alike: with cents when any has some, whole otherwise, and a sum of
// prices rounded to the cent (a float sum such as 0.1 + 0.2 printed as 0.30000000000000004 is no amount).
import { describe, expect, it } from 'vitest';
import { moneyFormat } from '../../src/shared/text';

describe('moneyFormat', () => {
  it('gives every amount of a table cents when one has them, none when none has', () => {
    const mixed = moneyFormat([49.5, 20, 0]);
    expect([49.5, 20, 0].map(mixed)).toEqual(['49.50', '20.00', '0.00']);
    const whole = moneyFormat([235, 160, 40, 35]);
    expect([235, 160, 40, 35].map(whole)).toEqual(['235', '160', '40', '35']);
  });

  it('rounds a sum of prices to the cent, and a sum that is whole at the cent reads whole', () => {
    const sum = 0.1 + 0.2;
    expect(moneyFormat([sum])(sum)).toBe('0.30');
    const nearlyWhole = 0.7 + 0.1 + 0.1 + 0.1;
    expect(nearlyWhole).not.toBe(1);
    expect(moneyFormat([nearlyWhole])(nearlyWhole)).toBe('1');
  });
});
