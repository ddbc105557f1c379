import { describeTxPoolSuite } from './tx-pool-suite.js';

describeTxPoolSuite('fresh');
describeTxPoolSuite('reopened');
