/*
 * N-API binding of the Poseidon2 engine (plain C, node_api.h only, NAPI_VERSION 8), so one binary serves every
 * Node release from 16 on: npm builds it under the system Node 20 and the project runs it on Node 24.
 *
 * Byte functions take and return 32-byte big-endian field elements (the Aztec wire form); BigInt functions move
 * the value as 64-bit words (napi_get_value_bigint_words), which is much cheaper than converting bigint <-> bytes
 * in JavaScript. Every input must be canonical (< the BN254 Fr modulus): a non-canonical input throws a
 * RangeError with code ERR_POSEIDON2_NON_CANONICAL naming the input's index. (barretenberg would reduce it
 * silently; Aztec's Fr never holds such a value, so seeing one means a caller bug.)
 *
 * Exports:
 *   hash(input: Uint8Array /32n bytes/): Buffer(32)                 sponge hash of n elements
 *   hashList(elements: Uint8Array[] /32 bytes each/): Buffer(32)    same, without concatenating in JS
 *   hashBatch(input: Uint8Array, width: number, out?: Uint8Array): Buffer | out
 *                                                                    k = len / (32 width) independent hashes
 *   permutation(state: Uint8Array /128 bytes/): Buffer(128)
 *   hashBigInts(values: bigint[]): bigint
 *   hashPairBigInt(left: bigint, right: bigint): bigint
 *   permutationBigInts(state: bigint[4]): bigint[]
 *   setKernel(name: 'best' | 'portable' | 'mulx-adx' | 'avx512ifma'): string  (returns the kernel now in use)
 *   kernel(): string
 * and, sharing the field arithmetic (fr_grumpkin.c; the AVM's FDIV and ECADD):
 *   frInverse(a: bigint): bigint                                     a^-1 mod p; RangeError for 0
 *   grumpkinEcAdd(x1, y1, inf1: boolean, x2, y2, inf2: boolean): [x, y] | 1 | 2
 *                                                                    ECADD; 1 or 2 names the point off the curve
 * Their bigint inputs must be canonical too (a RangeError otherwise).
 */
#ifndef NAPI_VERSION
#define NAPI_VERSION 8
#endif
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fr_grumpkin.h"
#include "poseidon2.h"

#define NON_CANONICAL_CODE "ERR_POSEIDON2_NON_CANONICAL"
/* Stack scratch for small calls; larger inputs go to the heap. */
#define SMALL_N 16

#define NAPI_OK(call)                                                                                          \
  do {                                                                                                       \
    if ((call) != napi_ok) return throw_last(env);                                                           \
  } while (0)

static napi_value throw_last(napi_env env) {
  const napi_extended_error_info *info = NULL;
  napi_get_last_error_info(env, &info);
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending)
    napi_throw_error(env, NULL, info && info->error_message ? info->error_message : "N-API call failed");
  return NULL;
}

static napi_value throw_type(napi_env env, const char *fn, const char *what) {
  char msg[256];
  snprintf(msg, sizeof msg, "poseidon2.%s: %s", fn, what);
  napi_throw_type_error(env, NULL, msg);
  return NULL;
}

static napi_value throw_range(napi_env env, const char *fn, const char *what) {
  char msg[256];
  snprintf(msg, sizeof msg, "poseidon2.%s: %s", fn, what);
  napi_throw_range_error(env, NULL, msg);
  return NULL;
}

static napi_value throw_non_canonical_be(napi_env env, size_t index, const uint8_t be[32]) {
  char msg[200];
  int n = snprintf(msg, sizeof msg, "Poseidon2 input %zu is not a canonical BN254 field element: 0x", index);
  for (int i = 0; i < 32; i++) n += snprintf(msg + n, sizeof msg - (size_t)n, "%02x", be[i]);
  snprintf(msg + n, sizeof msg - (size_t)n, " >= modulus");
  napi_throw_range_error(env, NON_CANONICAL_CODE, msg);
  return NULL;
}

/* Reads a Uint8Array (or Buffer) argument. */
static int get_bytes(napi_env env, napi_value v, const char *fn, const char *name, uint8_t **data, size_t *len) {
  bool is_ta = false;
  if (napi_is_typedarray(env, v, &is_ta) != napi_ok || !is_ta) {
    char what[128];
    snprintf(what, sizeof what, "%s must be a Uint8Array", name);
    throw_type(env, fn, what);
    return 0;
  }
  napi_typedarray_type type;
  void *ptr = NULL;
  if (napi_get_typedarray_info(env, v, &type, len, &ptr, NULL, NULL) != napi_ok) {
    throw_last(env);
    return 0;
  }
  if (type != napi_uint8_array) {
    char what[128];
    snprintf(what, sizeof what, "%s must be a Uint8Array, got another typed array", name);
    throw_type(env, fn, what);
    return 0;
  }
  /* A zero-length view may report NULL; callers never dereference it then. */
  *data = (uint8_t *)ptr;
  return 1;
}

static napi_value new_buffer(napi_env env, size_t len, uint8_t **data) {
  napi_value buf;
  void *ptr = NULL;
  if (napi_create_buffer(env, len, &ptr, &buf) != napi_ok) return throw_last(env);
  *data = (uint8_t *)ptr;
  return buf;
}

/* Reads a BigInt argument into canonical Montgomery form; throws and returns 0 on a bad value. */
static int get_bigint_fe(napi_env env, napi_value v, size_t index, p2_fe *out) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) {
    throw_last(env);
    return 0;
  }
  if (t != napi_bigint) {
    char msg[128];
    static const char *names[] = {"undefined", "null",     "boolean",  "number", "string",
                                  "symbol",    "object",   "function", "external", "bigint"};
    snprintf(msg, sizeof msg, "Poseidon2 input %zu must be a bigint, got %s", index,
             (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "another type");
    napi_throw_type_error(env, NULL, msg);
    return 0;
  }
  int sign = 0;
  size_t count = 4;
  uint64_t w[4] = {0, 0, 0, 0};
  if (napi_get_value_bigint_words(env, v, &sign, &count, w) != napi_ok) {
    throw_last(env);
    return 0;
  }
  char msg[200];
  if (sign) {
    snprintf(msg, sizeof msg, "Poseidon2 input %zu is not a canonical BN254 field element: negative value", index);
    napi_throw_range_error(env, NON_CANONICAL_CODE, msg);
    return 0;
  }
  if (count > 4) {
    snprintf(msg, sizeof msg, "Poseidon2 input %zu is not a canonical BN254 field element: more than 256 bits",
             index);
    napi_throw_range_error(env, NON_CANONICAL_CODE, msg);
    return 0;
  }
  for (size_t i = count; i < 4; i++) w[i] = 0;
  if (!p2_is_canonical_words(w)) {
    snprintf(msg, sizeof msg,
             "Poseidon2 input %zu is not a canonical BN254 field element: 0x%016llx%016llx%016llx%016llx >= modulus",
             index, (unsigned long long)w[3], (unsigned long long)w[2], (unsigned long long)w[1],
             (unsigned long long)w[0]);
    napi_throw_range_error(env, NON_CANONICAL_CODE, msg);
    return 0;
  }
  p2_from_words(out, w);
  return 1;
}

static napi_value words_to_bigint(napi_env env, const uint64_t w[4]) {
  size_t count = 4;
  while (count > 1 && w[count - 1] == 0) count--;
  napi_value r;
  if (napi_create_bigint_words(env, 0, count, w, &r) != napi_ok) return throw_last(env);
  return r;
}

static napi_value fe_to_bigint(napi_env env, const p2_fe *v) {
  uint64_t w[4];
  p2_to_words(w, v);
  return words_to_bigint(env, w);
}

/* Sponge hash of n big-endian elements at `src` into `dst`; returns 0 after throwing on a bad element. */
static int hash_be(napi_env env, const uint8_t *src, size_t n, uint8_t *dst) {
  p2_fe small[SMALL_N] = {0};
  p2_fe *vals = n <= SMALL_N ? small : (p2_fe *)malloc(n * sizeof(p2_fe));
  if (!vals) {
    napi_throw_error(env, NULL, "poseidon2: out of memory");
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (!p2_is_canonical_be(src + 32 * i)) {
      if (vals != small) free(vals);
      throw_non_canonical_be(env, i, src + 32 * i);
      return 0;
    }
    p2_from_be(&vals[i], src + 32 * i);
  }
  p2_fe h;
  p2_hash(&h, vals, n);
  if (vals != small) free(vals);
  p2_to_be(dst, &h);
  return 1;
}

static napi_value js_hash(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1) return throw_type(env, "hash", "expected (input: Uint8Array)");
  uint8_t *in;
  size_t len;
  if (!get_bytes(env, argv[0], "hash", "input", &in, &len)) return NULL;
  if (len % 32 != 0) {
    char what[128];
    snprintf(what, sizeof what, "input is %zu bytes, not a whole number of 32-byte field elements", len);
    return throw_range(env, "hash", what);
  }
  uint8_t *out;
  napi_value result = new_buffer(env, 32, &out);
  if (!result) return NULL;
  if (!hash_be(env, in, len / 32, out)) return NULL;
  return result;
}

static napi_value js_hash_list(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  bool is_array = false;
  if (argc < 1 || napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array)
    return throw_type(env, "hashList", "expected (elements: Uint8Array[])");
  uint32_t n;
  NAPI_OK(napi_get_array_length(env, argv[0], &n));
  uint8_t small[32 * SMALL_N];
  uint8_t *buf = n <= SMALL_N ? small : (uint8_t *)malloc((size_t)n * 32);
  if (!buf) {
    napi_throw_error(env, NULL, "poseidon2: out of memory");
    return NULL;
  }
  for (uint32_t i = 0; i < n; i++) {
    napi_value el;
    uint8_t *data;
    size_t len;
    char name[48];
    snprintf(name, sizeof name, "element %u", i);
    if (napi_get_element(env, argv[0], i, &el) != napi_ok || !get_bytes(env, el, "hashList", name, &data, &len)) {
      if (buf != small) free(buf);
      bool pending = false;
      napi_is_exception_pending(env, &pending);
      return pending ? NULL : throw_last(env);
    }
    if (len != 32) {
      if (buf != small) free(buf);
      char what[96];
      snprintf(what, sizeof what, "element %u is %zu bytes, expected 32", i, len);
      return throw_range(env, "hashList", what);
    }
    memcpy(buf + 32 * (size_t)i, data, 32);
  }
  uint8_t *out;
  napi_value result = new_buffer(env, 32, &out);
  int ok = result != NULL && hash_be(env, buf, n, out);
  if (buf != small) free(buf);
  return ok ? result : NULL;
}

static napi_value js_hash_batch(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2) return throw_type(env, "hashBatch", "expected (input: Uint8Array, width: number, out?: Uint8Array)");
  uint8_t *in;
  size_t len;
  if (!get_bytes(env, argv[0], "hashBatch", "input", &in, &len)) return NULL;
  napi_valuetype t;
  NAPI_OK(napi_typeof(env, argv[1], &t));
  if (t != napi_number) return throw_type(env, "hashBatch", "width must be a number");
  double wd;
  NAPI_OK(napi_get_value_double(env, argv[1], &wd));
  if (!(wd >= 1 && wd <= 1 << 20) || wd != (double)(size_t)wd)
    return throw_range(env, "hashBatch", "width must be an integer between 1 and 2^20");
  const size_t width = (size_t)wd;
  if (len % (32 * width) != 0) {
    char what[160];
    snprintf(what, sizeof what, "input is %zu bytes, not a multiple of %zu (width %zu x 32-byte elements)", len,
             32 * width, width);
    return throw_range(env, "hashBatch", what);
  }
  const size_t k = len / (32 * width);
  uint8_t *out;
  napi_value result;
  napi_valuetype out_type = napi_undefined;
  if (argc >= 3) NAPI_OK(napi_typeof(env, argv[2], &out_type));
  if (out_type != napi_undefined) {
    size_t out_len;
    if (!get_bytes(env, argv[2], "hashBatch", "out", &out, &out_len)) return NULL;
    if (out_len < 32 * k) {
      char what[128];
      snprintf(what, sizeof what, "out is %zu bytes, needs %zu (32 per hash)", out_len, 32 * k);
      return throw_range(env, "hashBatch", what);
    }
    /* Writing hash h never clobbers an unread input when out starts where input starts (in-place tree levels);
     * any other overlap could. */
    if (out != in && out < in + len && in < out + 32 * k)
      return throw_range(env, "hashBatch", "out overlaps input (only out at the same start as input is allowed)");
    result = argv[2];
  } else {
    result = new_buffer(env, 32 * k, &out);
    if (!result) return NULL;
  }
  if (k == 0) return result;
  const long bad = p2_hash_batch_be(out, in, k, width);
  if (bad >= 0) return throw_non_canonical_be(env, (size_t)bad, in + 32 * (size_t)bad);
  return result;
}

static napi_value js_permutation(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1) return throw_type(env, "permutation", "expected (state: Uint8Array)");
  uint8_t *in;
  size_t len;
  if (!get_bytes(env, argv[0], "permutation", "state", &in, &len)) return NULL;
  if (len != 128) {
    char what[96];
    snprintf(what, sizeof what, "state is %zu bytes, expected 128 (4 field elements)", len);
    return throw_range(env, "permutation", what);
  }
  p2_fe st[4];
  for (int i = 0; i < 4; i++) {
    if (!p2_is_canonical_be(in + 32 * i)) return throw_non_canonical_be(env, (size_t)i, in + 32 * i);
    p2_from_be(&st[i], in + 32 * i);
  }
  p2_permute(st);
  uint8_t *out;
  napi_value result = new_buffer(env, 128, &out);
  if (!result) return NULL;
  for (int i = 0; i < 4; i++) p2_to_be(out + 32 * i, &st[i]);
  return result;
}

static napi_value js_hash_bigints(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  bool is_array = false;
  if (argc < 1 || napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array)
    return throw_type(env, "hashBigInts", "expected (values: bigint[])");
  uint32_t n;
  NAPI_OK(napi_get_array_length(env, argv[0], &n));
  p2_fe small[SMALL_N];
  p2_fe *vals = n <= SMALL_N ? small : (p2_fe *)malloc((size_t)n * sizeof(p2_fe));
  if (!vals) {
    napi_throw_error(env, NULL, "poseidon2: out of memory");
    return NULL;
  }
  for (uint32_t i = 0; i < n; i++) {
    napi_value el;
    if (napi_get_element(env, argv[0], i, &el) != napi_ok || !get_bigint_fe(env, el, i, &vals[i])) {
      if (vals != small) free(vals);
      bool pending = false;
      napi_is_exception_pending(env, &pending);
      return pending ? NULL : throw_last(env);
    }
  }
  p2_fe h;
  p2_hash(&h, vals, n);
  if (vals != small) free(vals);
  return fe_to_bigint(env, &h);
}

static napi_value js_hash_pair_bigint(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2) return throw_type(env, "hashPairBigInt", "expected (left: bigint, right: bigint)");
  p2_fe in[2];
  if (!get_bigint_fe(env, argv[0], 0, &in[0])) return NULL;
  if (!get_bigint_fe(env, argv[1], 1, &in[1])) return NULL;
  p2_fe h;
  p2_hash(&h, in, 2);
  return fe_to_bigint(env, &h);
}

static napi_value js_permutation_bigints(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  bool is_array = false;
  if (argc < 1 || napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array)
    return throw_type(env, "permutationBigInts", "expected (state: bigint[4])");
  uint32_t n;
  NAPI_OK(napi_get_array_length(env, argv[0], &n));
  if (n != 4) {
    char what[96];
    snprintf(what, sizeof what, "Poseidon2 permutes 4 field elements, got %u", n);
    return throw_range(env, "permutationBigInts", what);
  }
  p2_fe st[4];
  for (uint32_t i = 0; i < 4; i++) {
    napi_value el;
    NAPI_OK(napi_get_element(env, argv[0], i, &el));
    if (!get_bigint_fe(env, el, i, &st[i])) return NULL;
  }
  p2_permute(st);
  napi_value arr;
  NAPI_OK(napi_create_array_with_length(env, 4, &arr));
  for (uint32_t i = 0; i < 4; i++) {
    napi_value v = fe_to_bigint(env, &st[i]);
    if (!v) return NULL;
    NAPI_OK(napi_set_element(env, arr, i, v));
  }
  return arr;
}

/* Reads a canonical field element given as a bigint into words; throws (and returns 0) otherwise. */
static int get_bigint_words(napi_env env, napi_value v, const char *fn, const char *name, uint64_t w[4]) {
  /* No napi_typeof first: napi_get_value_bigint_words itself answers napi_bigint_expected for a non-bigint, and
   * ECADD passes four coordinates per opcode, so one N-API call per argument instead of two. */
  int sign = 0;
  size_t count = 4;
  w[0] = w[1] = w[2] = w[3] = 0;
  const napi_status status = napi_get_value_bigint_words(env, v, &sign, &count, w);
  if (status == napi_bigint_expected) {
    char what[96];
    snprintf(what, sizeof what, "%s must be a bigint", name);
    throw_type(env, fn, what);
    return 0;
  }
  if (status != napi_ok) {
    throw_last(env);
    return 0;
  }
  for (size_t i = count; i < 4; i++) w[i] = 0;
  if (sign || count > 4 || !p2_is_canonical_words(w)) {
    char what[96];
    snprintf(what, sizeof what, "%s is not a canonical BN254 field element", name);
    throw_range(env, fn, what);
    return 0;
  }
  return 1;
}

static napi_value js_fr_inverse(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1) return throw_type(env, "frInverse", "expected (a: bigint)");
  uint64_t a[4], r[4];
  if (!get_bigint_words(env, argv[0], "frInverse", "a", a)) return NULL;
  if (!fr_inverse_words(r, a)) return throw_range(env, "frInverse", "0 has no inverse");
  return words_to_bigint(env, r);
}

static napi_value js_grumpkin_ecadd(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 6)
    return throw_type(env, "grumpkinEcAdd",
                      "expected (x1: bigint, y1: bigint, inf1: boolean, x2: bigint, y2: bigint, inf2: boolean)");
  uint64_t x1[4], y1[4], x2[4], y2[4], x3[4], y3[4];
  bool inf1 = false, inf2 = false;
  if (!get_bigint_words(env, argv[0], "grumpkinEcAdd", "x1", x1)) return NULL;
  if (!get_bigint_words(env, argv[1], "grumpkinEcAdd", "y1", y1)) return NULL;
  if (napi_get_value_bool(env, argv[2], &inf1) != napi_ok)
    return throw_type(env, "grumpkinEcAdd", "inf1 must be a boolean");
  if (!get_bigint_words(env, argv[3], "grumpkinEcAdd", "x2", x2)) return NULL;
  if (!get_bigint_words(env, argv[4], "grumpkinEcAdd", "y2", y2)) return NULL;
  if (napi_get_value_bool(env, argv[5], &inf2) != napi_ok)
    return throw_type(env, "grumpkinEcAdd", "inf2 must be a boolean");
  const int rc = fr_grumpkin_ecadd(x3, y3, x1, y1, inf1, x2, y2, inf2);
  napi_value result;
  if (rc != FR_ECADD_OK) {
    NAPI_OK(napi_create_int32(env, rc, &result));
    return result;
  }
  NAPI_OK(napi_create_array_with_length(env, 2, &result));
  napi_value x = words_to_bigint(env, x3);
  if (!x) return NULL;
  napi_value y = words_to_bigint(env, y3);
  if (!y) return NULL;
  NAPI_OK(napi_set_element(env, result, 0, x));
  NAPI_OK(napi_set_element(env, result, 1, y));
  return result;
}

static napi_value kernel_string(napi_env env) {
  napi_value s;
  if (napi_create_string_utf8(env, p2_kernel_name(p2_get_kernel()), NAPI_AUTO_LENGTH, &s) != napi_ok)
    return throw_last(env);
  return s;
}

static napi_value js_kernel(napi_env env, napi_callback_info info) {
  (void)info;
  return kernel_string(env);
}

static napi_value js_set_kernel(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_OK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  char name[32] = {0};
  size_t len = 0;
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len) != napi_ok)
    return throw_type(env, "setKernel", "expected (name: 'best' | 'portable' | 'mulx-adx' | 'avx512ifma')");
  static const p2_kernel kernels[] = {P2_KERNEL_BEST, P2_KERNEL_PORTABLE, P2_KERNEL_ADX, P2_KERNEL_IFMA};
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
    if (strcmp(name, p2_kernel_name(kernels[i])) == 0) {
      if (p2_set_kernel(kernels[i]) != 0) {
        char what[96];
        snprintf(what, sizeof what, "this CPU lacks the instructions for kernel '%s'", name);
        return throw_range(env, "setKernel", what);
      }
      return kernel_string(env);
    }
  }
  char what[128];
  snprintf(what, sizeof what, "unknown kernel '%s' (expected best, portable, mulx-adx or avx512ifma)", name);
  return throw_range(env, "setKernel", what);
}

NAPI_MODULE_INIT() {
  p2_init();
  fr_grumpkin_init();
  const napi_property_descriptor props[] = {
      {"hash", NULL, js_hash, NULL, NULL, NULL, napi_enumerable, NULL},
      {"hashList", NULL, js_hash_list, NULL, NULL, NULL, napi_enumerable, NULL},
      {"hashBatch", NULL, js_hash_batch, NULL, NULL, NULL, napi_enumerable, NULL},
      {"permutation", NULL, js_permutation, NULL, NULL, NULL, napi_enumerable, NULL},
      {"hashBigInts", NULL, js_hash_bigints, NULL, NULL, NULL, napi_enumerable, NULL},
      {"hashPairBigInt", NULL, js_hash_pair_bigint, NULL, NULL, NULL, napi_enumerable, NULL},
      {"permutationBigInts", NULL, js_permutation_bigints, NULL, NULL, NULL, napi_enumerable, NULL},
      {"kernel", NULL, js_kernel, NULL, NULL, NULL, napi_enumerable, NULL},
      {"setKernel", NULL, js_set_kernel, NULL, NULL, NULL, napi_enumerable, NULL},
      {"frInverse", NULL, js_fr_inverse, NULL, NULL, NULL, napi_enumerable, NULL},
      {"grumpkinEcAdd", NULL, js_grumpkin_ecadd, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok) return NULL;
  return exports;
}
