/**
 * Recognisable, unique names for what tack creates on a target: every e-mail carries the run id,
 * so a UAT operator can find (and clean up) what a run left behind.
 */
import { faker } from '@faker-js/faker';

export class Names {
  private n = 0;

  constructor(
    readonly runId: string,
    seed: number,
  ) {
    faker.seed(seed);
  }

  /** e.g. `tack+r20261121t0513-ab12.token.3@example.com` (plus-addressed, lower case). */
  email(label = 'user'): string {
    this.n += 1;
    return `tack+r${this.runId.toLowerCase()}.${label}.${this.n}@example.com`;
  }

  person(): { firstName: string; lastName: string } {
    return { firstName: faker.person.firstName(), lastName: faker.person.lastName() };
  }

  business(): { name: string; registrationNumber: string } {
    this.n += 1;
    return { name: `${faker.company.name()} (tack ${this.runId} #${this.n})`, registrationNumber: `TACK${this.n}${faker.string.numeric(6)}` };
  }
}
