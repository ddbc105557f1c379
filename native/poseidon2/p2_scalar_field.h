/*
 * Scalar BN254 Fr arithmetic on 4 x 64-bit limbs, Montgomery form with R = 2^256, values fully reduced to
 * [0, p). Header-only (static inline) so every kernel inlines it.
 */
#ifndef L2NODE_P2_SCALAR_FIELD_H
#define L2NODE_P2_SCALAR_FIELD_H

#include "p2_internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

typedef unsigned __int128 p2_u128;

/* r = a - p if a >= p, else a; requires a < 2p. Branch-free. */
static inline __attribute__((always_inline)) void p2_reduce_once(uint64_t r[4], const uint64_t a[4]) {
  uint64_t d[4];
#if defined(__x86_64__)
  /* sbb chain; gcc does not turn the generic form below into one. */
  unsigned long long t[4];
  unsigned char borrow = _subborrow_u64(0, a[0], P2_P0, &t[0]);
  borrow = _subborrow_u64(borrow, a[1], P2_P1, &t[1]);
  borrow = _subborrow_u64(borrow, a[2], P2_P2, &t[2]);
  borrow = _subborrow_u64(borrow, a[3], P2_P3, &t[3]);
  for (int i = 0; i < 4; i++) d[i] = t[i];
#else
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i++) {
    const p2_u128 diff = (p2_u128)a[i] - P2_MODULUS[i] - borrow;
    d[i] = (uint64_t)diff;
    borrow = (uint64_t)(diff >> 64) & 1;
  }
#endif
  /* borrow = 1: a < p, keep a. */
  const uint64_t keep = (uint64_t)0 - (uint64_t)borrow;
  for (int i = 0; i < 4; i++) r[i] = (a[i] & keep) | (d[i] & ~keep);
}

static inline __attribute__((always_inline)) void p2_fe_add(p2_fe *r, const p2_fe *a, const p2_fe *b) {
  /* a, b < p < 2^254, so the sum fits in 256 bits without a carry out. */
  uint64_t s[4];
  p2_u128 c = 0;
  for (int i = 0; i < 4; i++) {
    c += (p2_u128)a->w[i] + b->w[i];
    s[i] = (uint64_t)c;
    c >>= 64;
  }
  p2_reduce_once(r->w, s);
}

/*
 * CIOS Montgomery multiplication, r = a * b / 2^256 mod p, for a, b < p. Uses the "no final carry" shortcut:
 * the top limb of p is below 2^63 - 1, so the running total fits in 4 words plus the carries A and C.
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
  p2_reduce_once(r, t);
}

#endif
