/*
 * Shared between the engine's translation units (not part of the public interface in poseidon2.h).
 */
#ifndef L2NODE_P2_INTERNAL_H
#define L2NODE_P2_INTERNAL_H

#include "poseidon2.h"

/* Internal symbols are hidden: the kernels then reach the tables RIP-relative instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* BN254 Fr modulus p = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001, little-endian words. */
#define P2_P0 0x43e1f593f0000001ULL
#define P2_P1 0x2833e84879b97091ULL
#define P2_P2 0xb85045b68181585dULL
#define P2_P3 0x30644e72e131a029ULL
/* -p^-1 mod 2^64, for Montgomery reduction with 64-bit digits. */
#define P2_PINV64 0xc2e1f593efffffffULL

extern const uint64_t P2_MODULUS[4];

/* Canonical (non-Montgomery) parameters, parsed once from constants.h by p2_init. */
extern uint64_t P2_RC_CANON[64][4][4];
extern uint64_t P2_DIAG_CANON[4][4];

/* Montgomery-form (R = 2^256) parameters used by the scalar kernels. */
extern p2_fe P2_RC_FULL[8][4]; /* rounds 0..3 then 60..63 */
extern p2_fe P2_RC_PARTIAL[56];
extern p2_fe P2_DIAG[4];

/* out = in * 2^k mod p for canonical words (k modular doublings): builds constants for other Montgomery radixes
 * without hard-coding them. */
void p2_words_mul_pow2(uint64_t out[4], const uint64_t in[4], unsigned k);

/* Scalar kernels over Montgomery-256 states: one state, or two states interleaved. */
typedef void (*p2_permute1_fn)(p2_fe st[4]);
typedef void (*p2_permute2_fn)(p2_fe st[2][4]);

void p2_permute1_portable(p2_fe st[4]);
void p2_permute2_portable(p2_fe st[2][4]);

#if defined(__x86_64__) && defined(__GNUC__)
#define P2_HAVE_X86_KERNELS 1
void p2_permute1_adx(p2_fe st[4]);
void p2_permute2_adx(p2_fe st[2][4]);

/* AVX-512 IFMA kernel: 8 hashes per vector. p2_ifma_init must run (once) before p2_ifma_hash_be. */
#define P2_IFMA_LANES 8
void p2_ifma_init(void);
/* k hashes of `width` canonical big-endian inputs each (the caller has validated them); out gets k hashes. */
void p2_ifma_hash_be(uint8_t *out, const uint8_t *in, size_t k, size_t width);

#endif

#pragma GCC visibility pop

#endif
