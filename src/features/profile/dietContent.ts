export const diets = {
  Carnivore: {
    description: 'An all-animal way of eating: beef, lamb, pork, poultry, fish, eggs and animal fats, with little or nothing from plants.',
    benefits: [
      'Simple meals with no carb counting',
      'Steady energy between meals',
      'A clean starting point for an elimination diet',
      'Protein-rich plates that keep you full for longer',
    ],
  },
  Ketovore: {
    description:
      'Meat first, with room for eggs, full-fat dairy and a few low-carb vegetables, keeping carbohydrates low enough for ketosis.',
    benefits: [
      'More variety while staying low-carb',
      'An easier bridge into or out of strict carnivore',
      'Room for favourite low-carb sides and dairy',
      'Flexible for eating out and family meals',
    ],
  },
} as const;

export type DietName = keyof typeof diets;
export const DEFAULT_DIET: DietName = 'Carnivore';

/** SPEC §3: the interests form offers a fixed local list with ids 1 to 6. */
export const foodInterests = [
  { id: 1, name: 'Eggs' },
  { id: 2, name: 'Honey' },
  { id: 3, name: 'Cheese' },
  { id: 4, name: 'Yogurt' },
  { id: 5, name: 'Butter' },
  { id: 6, name: 'Milk' },
] as const;
