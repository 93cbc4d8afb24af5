import type { Schema, Struct } from '@strapi/strapi';

export interface ProfileBmi extends Struct.ComponentSchema {
  collectionName: 'components_profile_bmis';
  info: {
    description: 'Body measurements of a user';
    displayName: 'BMI';
    icon: 'chartLine';
  };
  attributes: {
    currentWeight: Schema.Attribute.Decimal;
    date_of_birth: Schema.Attribute.Date;
    Gender: Schema.Attribute.Enumeration<['Male', 'Female']> &
      Schema.Attribute.DefaultTo<'Male'>;
    height: Schema.Attribute.Decimal;
    idealBmiWeight: Schema.Attribute.String;
  };
}

declare module '@strapi/strapi' {
  export namespace Public {
    export interface ComponentSchemas {
      'profile.bmi': ProfileBmi;
    }
  }
}
