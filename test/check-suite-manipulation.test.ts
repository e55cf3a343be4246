/** The check-suite over every registered family of category M (manipulation); see `test/support/check-suite.ts`. */
import { describeCheckSuite } from './support/check-suite.ts';

describeCheckSuite('M');
