/*
 * Poseidon2 over the BN254 scalar field (t = 4, x^5, 4 + 56 + 4 rounds, Poseidon2Bn254ScalarFieldParams) and the
 * Aztec/barretenberg sponge built on it. Pure C, no Node dependency, so the arithmetic can be tested and timed on
 * its own; addon.c wraps it in N-API.
 *
 * Field elements cross this interface as 32-byte big-endian canonical encodings (the Aztec wire form) or as
 * little-endian 64-bit words (BigInt words in N-API). Internally they live in Montgomery form.
 */
#ifndef L2NODE_POSEIDON2_H
#define L2NODE_POSEIDON2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Little-endian 64-bit limbs. Inside the engine: Montgomery form (R = 2^256), lazily reduced to [0, 2p). */
typedef struct {
  uint64_t w[4];
} p2_fe;

/* Multiplication kernels; every one gives identical results. */
typedef enum {
  P2_KERNEL_BEST = 0,     /* the fastest this CPU supports (the default after p2_init) */
  P2_KERNEL_PORTABLE = 1, /* C with unsigned __int128 */
  P2_KERNEL_ADX = 2,      /* x86-64 BMI2 + ADX inline asm */
  P2_KERNEL_IFMA = 3      /* ADX for single hashes, AVX-512 IFMA (8 lanes) for batches */
} p2_kernel;

/* Parses the constants and selects the best kernel. Idempotent and thread-safe (pthread_once). */
void p2_init(void);

/* Switches kernel (tests and benchmarks compare them). Returns 0, or -1 when the CPU lacks the instructions
 * (the kernel in use is then unchanged). Process-wide. */
int p2_set_kernel(p2_kernel k);
p2_kernel p2_get_kernel(void);
const char *p2_kernel_name(p2_kernel k);

/* True when the 32-byte big-endian value is below the modulus. */
int p2_is_canonical_be(const uint8_t be[32]);

/* True when the little-endian words are below the modulus. */
int p2_is_canonical_words(const uint64_t w[4]);

/* Canonical big-endian bytes -> Montgomery form. The caller has checked p2_is_canonical_be. */
void p2_from_be(p2_fe *out, const uint8_t be[32]);
/* Montgomery form -> canonical big-endian bytes. */
void p2_to_be(uint8_t be[32], const p2_fe *in);
/* Canonical little-endian words -> Montgomery form, and back. */
void p2_from_words(p2_fe *out, const uint64_t w[4]);
void p2_to_words(uint64_t w[4], const p2_fe *in);

/* The permutation of a 4-element state, in place (Montgomery form). */
void p2_permute(p2_fe state[4]);

/* Sponge hash of n inputs (Montgomery form in and out): capacity lane = n * 2^64, rate 3, absorb by adding,
 * one permutation per chunk of 3 (at least one, so n = 0 hashes the all-zero state), output lane 0. */
void p2_hash(p2_fe *out, const p2_fe *in, size_t n);

/*
 * k independent sponge hashes of `width` inputs each, bytes in and out: `in` holds k * width 32-byte big-endian
 * elements, `out` receives k 32-byte big-endian hashes. Every input is validated before any hashing.
 * Returns -1 on success, or the index (in 32-byte elements) of the first non-canonical input (out untouched).
 */
long p2_hash_batch_be(uint8_t *out, const uint8_t *in, size_t k, size_t width);

#ifdef __cplusplus
}
#endif

#endif
