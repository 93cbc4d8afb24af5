// @ts-nocheck
// First-start text of the three legal pages. Editors change it afterwards in the admin panel
// (Content Manager > Single Types); the seed never overwrites what is there.

export const PRIVACY_POLICY = {
  Text: 'Privacy Policy',
  Content: `Carnivo ("Carnivo", "we", "us") makes a diet app for people who eat a carnivore or ketovore diet, and this web site, where you manage your account, profile and subscription. This policy explains what we collect, why, how long we keep it and how you can remove it.

## 1. What we collect

**Account data.** Your username, e-mail address and a password. We never store the password itself, only a salted hash of it. If you sign in with Google, Apple or Facebook, we receive your e-mail address and an identifier from that provider, never your password there.

**Profile and body data.** What you choose to enter: date of birth, gender, height, weight, your ideal BMI weight and the BMI we calculate from it, your profile picture, your diet (carnivore or ketovore), the foods you are interested in, your goal weight, a personal goal note and how often you want reminders.

**Diet and tracking data in the app.** Meal plans, favorite recipes, the foods you eliminate or reintroduce, and the notes you keep about weight, digestion, your cycle, mood and mental clarity.

**Subscription data.** When you subscribe, our payment processor, Stripe, collects your card details directly. We never see or store your full card number. We keep a Stripe customer reference, the plan you chose, its status and its renewal or end date.

**Support conversations.** Messages you send to our support team by e-mail or through the live chat on your profile.

**Technical data.** The server keeps short-lived logs (IP address, browser type, the page requested and the time) to keep the service secure and working. The web site stores only your sign-in token and user id in your browser's local storage; we use no advertising cookies.

## 2. Why we use it

- To run your account and sign you in.
- To calculate your BMI and ideal weight and to personalise meal plans, recipes and reminders.
- To take payment for your subscription, renew it and process cancellations and refunds.
- To answer your questions and fix problems.
- To keep the service secure and to prevent abuse.

We do not sell your data and we do not use your health data for advertising. Carnivo is not a medical service; see our Terms and Conditions.

## 3. Who we share it with

Only with the service providers we need to run Carnivo: Stripe for payments, our hosting provider, our e-mail provider for account messages (such as password reset codes) and our live-chat provider for support. Each of them may use your data only to provide their service to us. We disclose data to authorities only when the law requires it.

## 4. How long we keep it

- Account, profile and tracking data: for as long as your account exists.
- Subscription and payment records: up to 7 years after the payment, because tax and accounting law requires it, even after you delete your account.
- Support conversations: up to 2 years after the conversation ends.
- Server logs: up to 30 days.
- Backups: deleted data disappears from our backups within 35 days.

## 5. Deleting your account

You can delete your account at any time on the [Delete Account](/delete-profile) page while logged in. Deletion permanently removes your account, your profile, your BMI records, your meal plans and your favorite recipes. It cannot be undone. Cancel an active subscription on your profile's Subscriptions tab before you delete your account. Payment records that the law requires us to keep are retained as described above, without your profile.

## 6. Your rights

Depending on where you live, you may ask us for a copy of your data, ask us to correct it, restrict or object to its use, or ask for it to be deleted. Most of this you can do yourself on your profile. For anything else, write to us and we will answer within 30 days. You may also complain to your local data protection authority.

## 7. Children

Carnivo is meant for adults. We do not knowingly collect data from anyone under 16.

## 8. Changes

When we change this policy, we update the date at the top of this page. If a change matters to how we use your data, we tell you by e-mail before it takes effect.

## 9. Contact

Carnivo, 1200 NW Marshall Street, Suite 300, Portland, OR 97209, United States.
E-mail: [support@carnivo.app](mailto:support@carnivo.app), phone +1 (503) 555-0142, Monday to Friday, 9 AM to 5 PM Pacific.
`,
};

export const TERMS_AND_CONDITIONS = {
  Title: 'Terms and Conditions',
  Content: `These terms apply to the Carnivo mobile apps and this web site (together, "Carnivo"). By creating an account or using Carnivo you agree to them. If you do not agree, please do not use Carnivo.

## 1. Your account

- You must be at least 16 years old to create an account.
- Give us a real e-mail address and keep your password to yourself. You are responsible for what happens under your account.
- Tell us straight away at [support@carnivo.app](mailto:support@carnivo.app) if you think someone else has used your account.

## 2. Health disclaimer

Carnivo gives general information about carnivore and ketovore eating: recipes, meal plans, trackers and support from our team. **It is not medical advice** and it does not replace a doctor, dietitian or other qualified professional.

- Talk to your doctor before you start a carnivore, ketovore or elimination diet, especially if you are pregnant or breastfeeding, take medication, or have diabetes, kidney, liver, heart or digestive conditions or a history of eating disorders.
- BMI, ideal weight and other figures in Carnivo are estimates. They do not diagnose anything.
- Stop and seek medical help if you feel unwell.
- Results differ from person to person. Figures we publish, such as average weight loss, describe our users as a group and are not a promise.

## 3. Free download and subscription

- The apps are free to download and include a free meal plan. Further features need a paid subscription.
- The price, billing period and what is included are shown before you pay. Payment is taken by our payment processor, Stripe.
- **Your subscription renews automatically** at the end of each billing period at the then-current price, until you cancel. We tell you in advance of any price change, and it applies only from your next billing period.
- **You can cancel at any time** on your profile's Subscriptions tab. The cancellation takes effect at the end of the current billing period: you keep access until then and are not charged again.
- Refunds follow our [Refund Policy](/refund-policy), including the 30-day money-back guarantee.

## 4. Acceptable use

You agree not to:

- break the law or infringe anyone else's rights while using Carnivo;
- upload content that is offensive, harmful or not yours to share, including as a profile picture;
- try to reach accounts, data or systems that are not yours, or disrupt or overload the service;
- copy, resell or scrape Carnivo's recipes, meal plans or other content, or build a competing product from them;
- harass our support team or other people.

We may suspend or close an account that breaks these rules, after warning you where that is reasonable.

## 5. Our content

Recipes, meal plans, texts, images and software in Carnivo belong to us or our licensors. Your subscription gives you a personal, non-transferable right to use them for your own diet, not for commercial purposes. What you enter stays yours; you let us store and process it to provide Carnivo to you, as described in our [Privacy Policy](/privacy-policy).

## 6. Availability and changes

We work to keep Carnivo available and correct, but we cannot promise it will always be free of interruptions or errors. We may improve, change or remove features. If a change takes away a major part of what you paid for, you may cancel and ask for a refund for the unused part of your billing period.

## 7. Liability

Nothing in these terms limits liability that cannot be limited by law. Otherwise, Carnivo is provided as it is, and we are not liable for indirect losses, or for health outcomes of diet choices you make; our total liability to you is limited to the amount you paid us in the 12 months before the claim.

## 8. Ending the agreement

You can stop using Carnivo and delete your account at any time on the [Delete Account](/delete-profile) page. These terms end when your account is deleted, except for the parts that by their nature continue (such as sections 5 and 7).

## 9. Changes to these terms

We may update these terms. We show the date of the last change at the top of this page and tell you by e-mail about important changes at least 14 days before they apply. If you continue to use Carnivo afterwards, the new terms apply.

## 10. Contact and law

Carnivo, 1200 NW Marshall Street, Suite 300, Portland, OR 97209, United States; [support@carnivo.app](mailto:support@carnivo.app). These terms are governed by the laws of the State of Oregon, without taking away the protection that the consumer law of your own country gives you.
`,
};

export const REFUND_POLICY = {
  Title: 'Refund Policy',
  Content: `We want Carnivo to earn its place on your phone. If it does not, you get your money back.

## 1. 30-day money-back guarantee

If you are not happy with your first paid Carnivo subscription, ask us for a refund **within 30 days** of the first payment and we refund that payment in full. No questions, no forms to justify.

- The guarantee applies once per person, to the first payment of a subscription.
- Downloading the app and the free meal plan cost nothing, so there is nothing to refund there.

## 2. How to ask for a refund

1. Write to [support@carnivo.app](mailto:support@carnivo.app) from the e-mail address of your Carnivo account.
2. Put "Refund" in the subject and tell us your username. A reason helps us improve, but it is optional.
3. We confirm within 2 business days (Monday to Friday, 9 AM to 5 PM Pacific).

You can also call us at +1 (503) 555-0142 during those hours.

## 3. What happens next

- We refund the payment to the card you paid with, through our payment processor Stripe. Your bank usually shows it within 5 to 10 business days.
- A refunded subscription ends straight away, and the paid features stop. Your account, profile and data stay, unless you also delete your account.

## 4. After the 30 days

Renewal payments and payments after the first 30 days are not refunded, except where the law requires it or where a change we made removed a major part of what you paid for (see our [Terms and Conditions](/terms)). If you were charged twice, or charged after cancelling, tell us: we always refund mistakes.

## 5. Cancelling

Cancel at any time on your profile's Subscriptions tab. You keep access until the end of the billing period you have already paid for, and you are not charged again. Cancelling alone does not trigger a refund; within the first 30 days, write to us as described above if you also want your money back.

## 6. Deleting your account

Deleting your account on the [Delete Account](/delete-profile) page permanently removes your profile, BMI records, meal plans and favorite recipes. Cancel your subscription before deleting your account, and ask for any refund you are owed first, so that we can still find your payment.
`,
};
