/**
 * The reasons a tx is invalid (or skipped), word for word those of Aztec 4.1.2 (stdlib
 * tx/validator/error_texts.ts; docs/aztec-facts.md section 5.2), so that clients matching on them keep working.
 * The last one is ours: txs with public calls need the public VM, which this node does not have yet.
 */
export const TX_ERROR = {
  INSUFFICIENT_FEE_PER_GAS: 'Insufficient fee per gas',
  INSUFFICIENT_FEE_PAYER_BALANCE: 'Insufficient fee payer balance',
  INSUFFICIENT_GAS_LIMIT: 'Gas limit is below the minimum fixed cost',
  GAS_LIMIT_TOO_HIGH: 'Gas limit is higher than the amount of gas that the AVM can process',
  SETUP_FUNCTION_NOT_ALLOWED: 'Setup function not on allow list',
  SETUP_FUNCTION_UNKNOWN_CONTRACT: 'Setup function targets unknown contract',
  SETUP_ONLY_SELF_WRONG_SENDER: 'Setup only_self function called with incorrect msg_sender',
  SETUP_NULL_MSG_SENDER: 'Setup function called with null msg sender',
  SETUP_WRONG_CALLDATA_LENGTH: 'Setup function called with wrong calldata length',
  DUPLICATE_NULLIFIER_IN_TX: 'Duplicate nullifier in tx',
  EXISTING_NULLIFIER: 'Existing nullifier',
  INVALID_EXPIRATION_TIMESTAMP: 'Invalid expiration timestamp',
  INCORRECT_L1_CHAIN_ID: 'Incorrect L1 chain id',
  INCORRECT_ROLLUP_VERSION: 'Incorrect rollup version',
  INCORRECT_VK_TREE_ROOT: 'Incorrect verification keys tree root',
  INCORRECT_PROTOCOL_CONTRACTS_HASH: 'Incorrect protocol contracts hash',
  INVALID_PROOF: 'Invalid proof',
  INCORRECT_CALLDATA: 'Incorrect calldata for public call',
  CALLDATA_COUNT_MISMATCH: 'Wrong number of calldata for public calls',
  CALLDATA_COUNT_TOO_LARGE: 'Total calldata too large for enqueued public calls',
  CONTRACT_CLASS_LOG_COUNT: 'Mismatched number of contract class logs',
  CONTRACT_CLASS_LOG_LENGTH: 'Incorrect contract class logs length',
  CONTRACT_CLASS_LOGS: 'Mismatched contract class logs',
  CONTRACT_CLASS_LOG_SORTING: 'Incorrectly sorted contract class logs',
  INCORRECT_HASH: 'Incorrect tx hash',
  SIZE_ABOVE_LIMIT: 'Transaction size above size limit',
  BLOCK_HEADER: 'Block header not found',
  INCORRECT_CONTRACT_ADDRESS: 'Incorrect contract instance deployment address',
  MALFORMED_CONTRACT_INSTANCE_LOG: 'Failed to parse contract instance deployment log',
  DURING_VALIDATION: 'Unexpected error during validation',
} as const;
