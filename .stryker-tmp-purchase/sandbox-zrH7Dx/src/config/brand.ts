/** The product's name; kept apart from the company facts so the first paint carries only this. */
// @ts-nocheck

export const BRAND = 'Carnivo';
