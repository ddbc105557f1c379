/*
 * Scalar BN254 Fr arithmetic on 4 x 64-bit limbs, Montgomery form with R = 2^256. Header-only (static inline) so
 * every kernel inlines it.
 *
 * Values are kept "lazily reduced" in [0, 2p): p < 2^254, so sums of two such values stay below 4p < 2^256 and
 * a Montgomery product of two of them is below 4p^2 / R + p < 2p without a final subtraction (4p < R). That
 * saves a conditional subtraction per multiplication; p2_to_words makes the output canonical.
 */
#ifndef L2NODE_P2_SCALAR_FIELD_H
#define L2NODE_P2_SCALAR_FIELD_H

#include "p2_internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

typedef unsigned __int128 p2_u128;

static const uint64_t P2_TWO_P[4] = {P2_P0 << 1, P2_P1 << 1 | P2_P0 >> 63, P2_P2 << 1 | P2_P1 >> 63,
                                     P2_P3 << 1 | P2_P2 >> 63};

/* r = a - m if a >= m, else a. Branch-free. */
static inline __attribute__((always_inline)) void p2_sub_if_ge(uint64_t r[4], const uint64_t a[4],
                                                              const uint64_t m[4]) {
  uint64_t d[4];
#if defined(__x86_64__)
  /* sbb chain; gcc does not turn the generic form below into one. */
  unsigned long long t[4];
  unsigned char borrow = _subborrow_u64(0, a[0], m[0], &t[0]);
  borrow = _subborrow_u64(borrow, a[1], m[1], &t[1]);
  borrow = _subborrow_u64(borrow, a[2], m[2], &t[2]);
  borrow = _subborrow_u64(borrow, a[3], m[3], &t[3]);
  for (int i = 0; i < 4; i++) d[i] = t[i];
#else
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i++) {
    const p2_u128 diff = (p2_u128)a[i] - m[i] - borrow;
    d[i] = (uint64_t)diff;
    borrow = (uint64_t)(diff >> 64) & 1;
  }
#endif
  /* borrow = 1: a < m, keep a. */
  const uint64_t keep = (uint64_t)0 - (uint64_t)borrow;
  for (int i = 0; i < 4; i++) r[i] = (a[i] & keep) | (d[i] & ~keep);
}

/* a, b < 2p: r = a + b reduced to [0, 2p). */
static inline __attribute__((always_inline)) void p2_fe_add(p2_fe *r, const p2_fe *a, const p2_fe *b) {
  /* The sum is below 4p < 2^256: no carry out of the top word. */
  uint64_t s[4];
  p2_u128 c = 0;
  for (int i = 0; i < 4; i++) {
    c += (p2_u128)a->w[i] + b->w[i];
    s[i] = (uint64_t)c;
    c >>= 64;
  }
  p2_sub_if_ge(r->w, s, P2_TWO_P);
}

/*
 * CIOS Montgomery multiplication, r = a * b / 2^256 mod p, for a, b < 2p; r < 2p. Uses the "no final carry"
 * shortcut: the top limb of p is below 2^63 - 1 and the running total stays below a + p < 3p < 2^256 after each
 * step, so it fits in 4 words plus the carries A and C.
 */
static inline __attribute__((always_inline)) void p2_mont_mul_portable(uint64_t r[4], const uint64_t a[4],
                                                                      const uint64_t b[4]) {
  uint64_t t[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    const uint64_t bi = b[i];
    p2_u128 x = (p2_u128)a[0] * bi + t[0];
    t[0] = (uint64_t)x;
    uint64_t A = (uint64_t)(x >> 64);
    const uint64_t m = t[0] * P2_PINV64;
    x = (p2_u128)m * P2_MODULUS[0] + t[0];
    uint64_t C = (uint64_t)(x >> 64);
    for (int j = 1; j < 4; j++) {
      x = (p2_u128)a[j] * bi + t[j] + A;
      t[j] = (uint64_t)x;
      A = (uint64_t)(x >> 64);
      x = (p2_u128)m * P2_MODULUS[j] + t[j] + C;
      t[j - 1] = (uint64_t)x;
      C = (uint64_t)(x >> 64);
    }
    t[3] = C + A;
  }
  for (int i = 0; i < 4; i++) r[i] = t[i];
}

#endif
