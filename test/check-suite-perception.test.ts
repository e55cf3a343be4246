/** The check-suite over every registered family of category V (perception); see `test/support/check-suite.ts`. */
import { describeCheckSuite } from './support/check-suite.ts';

describeCheckSuite('V');
