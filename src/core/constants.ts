/**
 * Protocol constants of Aztec 4.1.2 (package @aztec/constants@4.1.2, constants.gen). These are facts of
 * the protocol: changing one breaks bit-exactness with the real network.
 */

/** Domain separators, prepended as the first field of a Poseidon2 hash. Plain integers, not string hashes. */
export const DomainSeparator = {
  NOTE_HASH: 116501019,
  NOTE_HASH_NONCE: 1721808740,
  UNIQUE_NOTE_HASH: 226850429,
  SILOED_NOTE_HASH: 3361878420,
  NOTE_NULLIFIER: 50789342,
  MESSAGE_NULLIFIER: 3754509616,
  SILOED_NULLIFIER: 57496191,
  PRIVATE_LOG_FIRST_FIELD: 2769976252,
  PUBLIC_LEAF_SLOT: 1247650290,
  PUBLIC_STORAGE_MAP_SLOT: 4015149901,
  PRIVATE_FUNCTION_LEAF: 1389398688,
  PUBLIC_BYTECODE: 260313585,
  CONTRACT_CLASS_ID: 3923495515,
  INITIALIZER: 385396519,
  PUBLIC_KEYS_HASH: 777457226,
  PARTIAL_ADDRESS: 2103633018,
  CONTRACT_ADDRESS_V1: 1788365517,
  BLOCK_HEADER_HASH: 4195546849,
  TX_REQUEST: 3763737512,
  PUBLIC_TX_HASH: 1630108851,
  PRIVATE_TX_HASH: 1971680439,
  PUBLIC_CALLDATA: 2760353947,
  FUNCTION_ARGS: 3576554347,
  PROTOCOL_CONTRACTS: 3904434327,
  SECRET_HASH: 4199652938,
  TX_NULLIFIER: 1025801951,
  INITIALIZATION_NULLIFIER: 1653084894,
} as const;

// Tree ids and heights.
export const NULLIFIER_TREE_ID = 0;
export const NOTE_HASH_TREE_ID = 1;
export const PUBLIC_DATA_TREE_ID = 2;
export const L1_TO_L2_MESSAGE_TREE_ID = 3;
export const ARCHIVE_TREE_ID = 4;

export const NULLIFIER_TREE_HEIGHT = 42;
export const NOTE_HASH_TREE_HEIGHT = 42;
export const PUBLIC_DATA_TREE_HEIGHT = 40;
export const L1_TO_L2_MSG_TREE_HEIGHT = 36;
export const ARCHIVE_HEIGHT = 30;

export const NOTE_HASH_SUBTREE_HEIGHT = 6;
export const NULLIFIER_SUBTREE_HEIGHT = 6;
export const PUBLIC_DATA_SUBTREE_HEIGHT = 6;
export const L1_TO_L2_MSG_SUBTREE_HEIGHT = 10;

/** Leaves prefilled in the indexed trees at genesis: 2 x MAX_NULLIFIERS_PER_TX and 2 x MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX. */
export const GENESIS_NULLIFIER_LEAVES = 128;
export const GENESIS_PUBLIC_DATA_LEAVES = 128;

// Per-tx maxima.
export const MAX_NOTE_HASHES_PER_TX = 64;
export const MAX_NULLIFIERS_PER_TX = 64;
export const MAX_L2_TO_L1_MSGS_PER_TX = 8;
export const MAX_PRIVATE_LOGS_PER_TX = 64;
export const MAX_CONTRACT_CLASS_LOGS_PER_TX = 1;
export const MAX_ENQUEUED_CALLS_PER_TX = 32;
export const MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX = 64;
export const MAX_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX = 63;
export const MAX_PUBLIC_DATA_READS_PER_TX = 64;
export const MAX_PRIVATE_CALL_STACK_LENGTH_PER_TX = 16;
export const MAX_FR_CALLDATA_TO_ALL_ENQUEUED_CALLS = 16000;
export const NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP = 1024;

// Log sizes.
export const PRIVATE_LOG_SIZE_IN_FIELDS = 16;
export const PRIVATE_LOG_LENGTH = 17;
export const FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH = 4096;
export const PUBLIC_LOG_HEADER_LENGTH = 2;
export const MAX_PUBLIC_LOG_SIZE_IN_FIELDS = 4094;
export const CONTRACT_CLASS_LOG_SIZE_IN_FIELDS = 3023;
export const CHONK_PROOF_LENGTH = 1935;
export const BLOCK_HEADER_LENGTH = 22;
/** Fields hashed into a tx hash: the private kernel tail's public inputs "to rollup" and "to public". */
export const PRIVATE_TO_ROLLUP_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH = 1281;
export const PRIVATE_TO_PUBLIC_KERNEL_CIRCUIT_PUBLIC_INPUTS_LENGTH = 2784;
export const MAX_PACKED_PUBLIC_BYTECODE_SIZE_IN_FIELDS = 3000;

// Chain numbering and genesis.
export const INITIAL_L2_BLOCK_NUM = 1;
export const INITIAL_CHECKPOINT_NUMBER = 1;
export const MAX_CHECKPOINTS_PER_EPOCH = 32;
export const MAX_TX_LIFETIME = 86400;
export const GENESIS_BLOCK_HEADER_HASH = 21694244557328181932449230888455310614586084993178835904749768133365362325861n;
export const GENESIS_ARCHIVE_ROOT = 9682850228538071369704502076456077473410427336083826595120404283897422804423n;
export const FIELDS_PER_BLOB = 4096;
/** The most blobs a checkpoint publishes (its blob fields budget); the fee model prices three (fees/fee-lib.ts). */
export const BLOBS_PER_CHECKPOINT = 6;

// Gas.
export const DA_GAS_PER_FIELD = 32;
export const DA_GAS_PER_BYTE = 1;
export const TX_DA_GAS_OVERHEAD = 96;
export const PRIVATE_TX_L2_GAS_OVERHEAD = 440000;
export const PUBLIC_TX_L2_GAS_OVERHEAD = 540000;
export const FIXED_AVM_STARTUP_L2_GAS = 20000;
export const MAX_PROCESSABLE_L2_GAS = 6540000;
export const AVM_MAX_PROCESSABLE_L2_GAS = 6000000;
export const MAX_PROCESSABLE_DA_GAS_PER_CHECKPOINT = 786432;
export const DEFAULT_L2_GAS_LIMIT = 6540000;
export const DEFAULT_TEARDOWN_L2_GAS_LIMIT = 1000000;
export const DEFAULT_DA_GAS_LIMIT = 786432;
export const DEFAULT_TEARDOWN_DA_GAS_LIMIT = 393216;
export const L2_GAS_PER_NOTE_HASH = 9200;
export const L2_GAS_PER_NULLIFIER = 16000;
export const L2_GAS_PER_L2_TO_L1_MSG = 5200;
export const L2_GAS_PER_PRIVATE_LOG = 2500;
export const L2_GAS_PER_CONTRACT_CLASS_LOG = 73000;

/** Largest serialized tx the node accepts (512 KiB). */
export const MAX_TX_SIZE_BYTES = 512 * 1024;

// Canonical protocol contract addresses.
export const CANONICAL_AUTH_REGISTRY_ADDRESS = 1n;
export const CONTRACT_INSTANCE_REGISTRY_CONTRACT_ADDRESS = 2n;
export const CONTRACT_CLASS_REGISTRY_CONTRACT_ADDRESS = 3n;
export const MULTI_CALL_ENTRYPOINT_ADDRESS = 4n;
export const FEE_JUICE_ADDRESS = 5n;
export const PUBLIC_CHECKS_ADDRESS = 6n;
/** p - 1: the sender of the protocol nullifier (siloNullifier(p - 1, txRequestHash)). */
export const NULL_MSG_SENDER_CONTRACT_ADDRESS =
  21888242871839275222246405745257275088548364400416034343698204186575808495616n;
export const FEE_JUICE_BALANCES_SLOT = 1n;

/** Package version of Aztec whose wire format and hashes this node reproduces. */
export const AZTEC_COMPAT_VERSION = '4.1.2';

// Public execution (AVM).
export const MEM_TAG_FF = 0;
export const MEM_TAG_U1 = 1;
export const MEM_TAG_U8 = 2;
export const MEM_TAG_U16 = 3;
export const MEM_TAG_U32 = 4;
export const MEM_TAG_U64 = 5;
export const MEM_TAG_U128 = 6;
export const AVM_MEMORY_SIZE = 4294967296;
export const AVM_MAX_OPERANDS = 7;
export const NOTE_HASH_TREE_LEAF_COUNT = 4398046511104n;
export const L1_TO_L2_MSG_TREE_LEAF_COUNT = 68719476736n;
export const MAX_ETH_ADDRESS_VALUE = 1461501637330902918203684832716283019655932542975n;
/** Addresses 1..MAX_PROTOCOL_CONTRACTS are reserved for protocol contracts (no deployment nullifier). */
export const MAX_PROTOCOL_CONTRACTS = 11;
export const MAX_PUBLIC_CALLS_TO_UNIQUE_CONTRACT_CLASS_IDS = 21;
export const PROTOCOL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX = 1;
/** The instance registry's map of contract updates (delayed public mutable class ids). */
export const UPDATED_CLASS_IDS_SLOT = 1n;
export const UPDATES_VALUE_SIZE = 1;
export const DEFAULT_MAX_DEBUG_LOG_MEMORY_READS = 125000;
/** Return and revert data are read back at most this many fields (Aztec's "best effort" read cap). */
export const AVM_BEST_EFFORT_READ_CAP = 10000;

// AVM gas per opcode (base L2, base DA, dynamic per unit).
export const AVM_ADDRESSING_BASE_RESOLUTION_L2_GAS = 3;
export const AVM_ADDRESSING_INDIRECT_L2_GAS = 3;
export const AVM_ADDRESSING_RELATIVE_L2_GAS = 3;
export const AVM_ADD_BASE_L2_GAS = 12;
export const AVM_SUB_BASE_L2_GAS = 12;
export const AVM_MUL_BASE_L2_GAS = 27;
export const AVM_DIV_BASE_L2_GAS = 27;
export const AVM_FDIV_BASE_L2_GAS = 225;
export const AVM_EQ_BASE_L2_GAS = 12;
export const AVM_LT_BASE_L2_GAS = 42;
export const AVM_LTE_BASE_L2_GAS = 42;
export const AVM_AND_BASE_L2_GAS = 12;
export const AVM_OR_BASE_L2_GAS = 12;
export const AVM_XOR_BASE_L2_GAS = 12;
export const AVM_NOT_BASE_L2_GAS = 12;
export const AVM_SHL_BASE_L2_GAS = 18;
export const AVM_SHR_BASE_L2_GAS = 18;
export const AVM_CAST_BASE_L2_GAS = 27;
export const AVM_GETENVVAR_BASE_L2_GAS = 12;
export const AVM_CALLDATACOPY_BASE_L2_GAS = 18;
export const AVM_SUCCESSCOPY_BASE_L2_GAS = 12;
export const AVM_RETURNDATASIZE_BASE_L2_GAS = 12;
export const AVM_RETURNDATACOPY_BASE_L2_GAS = 18;
export const AVM_JUMP_BASE_L2_GAS = 9;
export const AVM_JUMPI_BASE_L2_GAS = 9;
export const AVM_INTERNALCALL_BASE_L2_GAS = 9;
export const AVM_INTERNALRETURN_BASE_L2_GAS = 9;
export const AVM_SET_BASE_L2_GAS = 27;
export const AVM_MOV_BASE_L2_GAS = 12;
export const AVM_SLOAD_BASE_L2_GAS = 1290;
export const AVM_SSTORE_BASE_L2_GAS = 33140;
export const AVM_NOTEHASHEXISTS_BASE_L2_GAS = 504;
export const AVM_EMITNOTEHASH_BASE_L2_GAS = 19275;
export const AVM_NULLIFIEREXISTS_BASE_L2_GAS = 903;
export const AVM_EMITNULLIFIER_BASE_L2_GAS = 30800;
export const AVM_L1TOL2MSGEXISTS_BASE_L2_GAS = 540;
export const AVM_GETCONTRACTINSTANCE_BASE_L2_GAS = 6108;
export const AVM_EMITPUBLICLOG_BASE_L2_GAS = 15;
export const AVM_SENDL2TOL1MSG_BASE_L2_GAS = 5239;
export const AVM_CALL_BASE_L2_GAS = 9936;
export const AVM_STATICCALL_BASE_L2_GAS = 9936;
export const AVM_RETURN_BASE_L2_GAS = 9;
export const AVM_REVERT_BASE_L2_GAS = 9;
export const AVM_DEBUGLOG_BASE_L2_GAS = 9;
export const AVM_POSEIDON2_BASE_L2_GAS = 360;
export const AVM_SHA256COMPRESSION_BASE_L2_GAS = 12288;
export const AVM_KECCAKF1600_BASE_L2_GAS = 58176;
export const AVM_ECADD_BASE_L2_GAS = 270;
export const AVM_TORADIXBE_BASE_L2_GAS = 24;
export const AVM_CALLDATACOPY_DYN_L2_GAS = 3;
export const AVM_RETURNDATACOPY_DYN_L2_GAS = 3;
export const AVM_TORADIXBE_DYN_L2_GAS = 3;
export const AVM_BITWISE_DYN_L2_GAS = 3;
export const AVM_EMITPUBLICLOG_DYN_L2_GAS = 3;
export const AVM_EMITNOTEHASH_BASE_DA_GAS = 32;
export const AVM_EMITNULLIFIER_BASE_DA_GAS = 32;
export const AVM_SENDL2TOL1MSG_BASE_DA_GAS = 32;
export const AVM_EMITPUBLICLOG_BASE_DA_GAS = 64;
export const AVM_EMITPUBLICLOG_DYN_DA_GAS = 32;
export const AVM_SSTORE_DYN_DA_GAS = 64;
