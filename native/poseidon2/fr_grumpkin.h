/*
 * BN254 Fr inversion and Grumpkin affine addition (y^2 = x^3 - 17 over Fr), for the AVM's FDIV and ECADD.
 * Declared apart from poseidon2.h: the hash engine does not use them, they only share its field arithmetic.
 */
#ifndef L2NODE_FR_GRUMPKIN_H
#define L2NODE_FR_GRUMPKIN_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Builds the Montgomery constants; called once from the addon's init (after p2_init). */
void fr_grumpkin_init(void);

/* out = a^-1 mod p for canonical words 0 < a < p; returns 0 (out untouched) for a = 0. */
int fr_inverse_words(uint64_t out[4], const uint64_t a[4]);

/* ECADD's outcomes. */
#define FR_ECADD_OK 0
#define FR_ECADD_P1_OFF_CURVE 1
#define FR_ECADD_P2_OFF_CURVE 2

/*
 * The AVM's ECADD on canonical words: a point flagged infinite is not checked and its coordinates are ignored;
 * an unflagged point must be on the curve (point 1 is checked first). The result is affine with infinity as
 * (0, 0): inf + inf = (0, 0), inf + Q = Q and P + inf = P as given, P + (-P) = (0, 0), and doubling a point
 * with y = 0 = (0, 0).
 */
int fr_grumpkin_ecadd(uint64_t x3[4], uint64_t y3[4], const uint64_t x1[4], const uint64_t y1[4], int inf1,
                      const uint64_t x2[4], const uint64_t y2[4], int inf2);

#pragma GCC visibility pop

#endif
