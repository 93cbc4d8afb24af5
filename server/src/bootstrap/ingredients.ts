import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';

// Fixed food-interest list; the SPA refers to these by id 1..6 (SPEC §3), so order matters.
export const INGREDIENTS = [
  { ingredient_name: 'Eggs', slug: 'eggs' },
  { ingredient_name: 'Honey', slug: 'honey' },
  { ingredient_name: 'Cheese', slug: 'cheese' },
  { ingredient_name: 'Yogurt', slug: 'yogurt' },
  { ingredient_name: 'Butter', slug: 'butter' },
  { ingredient_name: 'Milk', slug: 'milk' },
] as const;

export async function seedIngredients(strapi: Core.Strapi): Promise<void> {
  const ingredients = strapi.documents(UID.ingredient);

  for (const [index, data] of INGREDIENTS.entries()) {
    let entry = await ingredients.findFirst({ filters: { slug: data.slug } });
    if (!entry) {
      entry = await ingredients.create({ data: { ...data } });
      strapi.log.info(`[seed] created ingredient ${data.ingredient_name} (id ${entry.id})`);
    }
    if (entry.id !== index + 1) {
      strapi.log.warn(`[seed] ingredient "${data.slug}" has id ${entry.id}, expected ${index + 1}; the SPA's interest list will not match`);
    }
  }
}
