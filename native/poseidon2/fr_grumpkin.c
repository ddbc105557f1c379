/*
 * BN254 Fr inversion and Grumpkin affine addition. The AVM's ECADD returns an affine point, so every opcode
 * pays one inversion; Noir's multi-scalar multiplication runs hundreds of them per call. Inversion is a
 * variable-time binary extended Euclid on 4 x 64-bit words (field elements in the AVM are public, so no
 * constant-time requirement): about 2 x 254 halvings and 254 subtractions, a few microseconds. The curve
 * arithmetic uses the Montgomery multiplication of the Poseidon2 engine (p2_scalar_field.h), kept canonical
 * (< p) after every operation so that equality and zero tests compare words.
 */
#include "fr_grumpkin.h"

#include <pthread.h>
#include <string.h>

#include "p2_internal.h"
#include "p2_scalar_field.h"

/* R^3 mod p (R = 2^256): mont_mul(inverse of aR, R^3) = a^-1 R, the inverse back in Montgomery form. */
static uint64_t R3_256[4];
/* 17 in Montgomery form (the curve's constant b = -17). */
static uint64_t SEVENTEEN_M[4];

static const uint64_t ONE[4] = {1, 0, 0, 0};

static inline int words_eq(const uint64_t a[4], const uint64_t b[4]) {
  return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) == 0;
}

static inline int words_zero(const uint64_t a[4]) { return (a[0] | a[1] | a[2] | a[3]) == 0; }

/* a >= b as 256-bit numbers. */
static inline int words_ge(const uint64_t a[4], const uint64_t b[4]) {
  for (int i = 3; i >= 0; i--)
    if (a[i] != b[i]) return a[i] > b[i];
  return 1;
}

/* r = a - b as 256-bit numbers; returns the borrow. */
static inline uint64_t words_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i++) {
    const p2_u128 d = (p2_u128)a[i] - b[i] - borrow;
    r[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  return borrow;
}

/* r = a + b as 256-bit numbers (callers keep the sum below 2^256). */
static inline void words_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  p2_u128 c = 0;
  for (int i = 0; i < 4; i++) {
    c += (p2_u128)a[i] + b[i];
    r[i] = (uint64_t)c;
    c >>= 64;
  }
}

/* Canonical modular operations (inputs and outputs < p). */
static inline void fe_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  if (words_sub(r, a, b)) words_add(r, r, P2_MODULUS);
}

static inline void fe_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  uint64_t s[4];
  words_add(s, a, b); /* < 2p < 2^255 */
  p2_sub_if_ge(r, s, P2_MODULUS);
}

static inline void fe_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  uint64_t t[4];
  p2_mont_mul_portable(t, a, b); /* < 2p */
  p2_sub_if_ge(r, t, P2_MODULUS);
}

/* x = x / 2^k mod p, one bit at a time: odd x gets p added first (x + p < 2^255, no overflow). */
static inline void half_mod(uint64_t x[4], unsigned k) {
  for (unsigned i = 0; i < k; i++) {
    if (x[0] & 1) words_add(x, x, P2_MODULUS);
    x[0] = x[0] >> 1 | x[1] << 63;
    x[1] = x[1] >> 1 | x[2] << 63;
    x[2] = x[2] >> 1 | x[3] << 63;
    x[3] >>= 1;
  }
}

/* u >>= k for 0 < k < 64. */
static inline void shr_words(uint64_t u[4], unsigned k) {
  u[0] = u[0] >> k | u[1] << (64 - k);
  u[1] = u[1] >> k | u[2] << (64 - k);
  u[2] = u[2] >> k | u[3] << (64 - k);
  u[3] >>= k;
}

/* Removes the factors of two of u (u != 0), halving x as often. */
static inline void strip_twos(uint64_t u[4], uint64_t x[4]) {
  while ((u[0] & 1) == 0) {
    unsigned k;
    if (u[0] == 0) {
      /* 64 at once: shift a whole word. */
      u[0] = u[1];
      u[1] = u[2];
      u[2] = u[3];
      u[3] = 0;
      k = 64;
    } else {
      k = (unsigned)__builtin_ctzll(u[0]);
      shr_words(u, k);
    }
    half_mod(x, k);
  }
}

int fr_inverse_words(uint64_t out[4], const uint64_t a[4]) {
  if (words_zero(a)) return 0;
  /* Invariants: x1 * a = u and x2 * a = v (mod p); gcd(u, v) = gcd(a, p) = 1; u, v odd after stripping. */
  uint64_t u[4], v[4], x1[4] = {1, 0, 0, 0}, x2[4] = {0, 0, 0, 0};
  memcpy(u, a, sizeof u);
  memcpy(v, P2_MODULUS, sizeof v);
  strip_twos(u, x1);
  for (;;) {
    if (words_eq(u, ONE)) {
      memcpy(out, x1, sizeof x1);
      return 1;
    }
    if (words_eq(v, ONE)) {
      memcpy(out, x2, sizeof x2);
      return 1;
    }
    /* Both odd and distinct (equal would mean both are the gcd, 1): the difference is even and non-zero. */
    if (words_ge(u, v)) {
      words_sub(u, u, v);
      fe_sub(x1, x1, x2);
      strip_twos(u, x1);
    } else {
      words_sub(v, v, u);
      fe_sub(x2, x2, x1);
      strip_twos(v, x2);
    }
  }
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_constants(void) {
  uint64_t r2[4], seventeen[4] = {17, 0, 0, 0};
  p2_words_mul_pow2(R3_256, ONE, 768);
  p2_words_mul_pow2(r2, ONE, 512);
  fe_mul(SEVENTEEN_M, seventeen, r2);
}

/* Once per process: worker threads load the addon too. */
void fr_grumpkin_init(void) { pthread_once(&init_once, init_constants); }

/* Canonical words -> canonical Montgomery form. */
static inline void to_mont(uint64_t r[4], const uint64_t a[4]) {
  p2_fe t;
  p2_from_words(&t, a);
  p2_sub_if_ge(r, t.w, P2_MODULUS);
}

/* Canonical Montgomery form -> canonical words. */
static inline void from_mont(uint64_t r[4], const uint64_t a[4]) {
  p2_fe t;
  memcpy(t.w, a, sizeof t.w);
  p2_to_words(r, &t);
}

/* a^-1 in Montgomery form, for a != 0 in Montgomery form. */
static inline void mont_inverse(uint64_t r[4], const uint64_t a[4]) {
  uint64_t inv[4];
  fr_inverse_words(inv, a); /* (aR)^-1 */
  fe_mul(r, inv, R3_256);
}

/* y^2 = x^3 - 17, all in Montgomery form. */
static int on_curve(const uint64_t x[4], const uint64_t y[4]) {
  uint64_t yy[4], xxx[4];
  fe_mul(yy, y, y);
  fe_mul(xxx, x, x);
  fe_mul(xxx, xxx, x);
  fe_sub(xxx, xxx, SEVENTEEN_M);
  return words_eq(yy, xxx);
}

int fr_grumpkin_ecadd(uint64_t x3[4], uint64_t y3[4], const uint64_t x1[4], const uint64_t y1[4], int inf1,
                      const uint64_t x2[4], const uint64_t y2[4], int inf2) {
  uint64_t ax[4], ay[4], bx[4], by[4];
  if (!inf1) {
    to_mont(ax, x1);
    to_mont(ay, y1);
    if (!on_curve(ax, ay)) return FR_ECADD_P1_OFF_CURVE;
  }
  if (!inf2) {
    to_mont(bx, x2);
    to_mont(by, y2);
    if (!on_curve(bx, by)) return FR_ECADD_P2_OFF_CURVE;
  }
  if (inf1 && inf2) {
    memset(x3, 0, 32);
    memset(y3, 0, 32);
    return FR_ECADD_OK;
  }
  if (inf1 || inf2) {
    memcpy(x3, inf1 ? x2 : x1, 32);
    memcpy(y3, inf1 ? y2 : y1, 32);
    return FR_ECADD_OK;
  }
  uint64_t lambda[4], num[4], den[4], inv[4];
  if (words_eq(ax, bx)) {
    if (!words_eq(ay, by) || words_zero(ay)) {
      /* P + (-P), or doubling a point of order two: infinity. */
      memset(x3, 0, 32);
      memset(y3, 0, 32);
      return FR_ECADD_OK;
    }
    /* Doubling: lambda = 3 x^2 / 2 y. */
    fe_mul(num, ax, ax);
    uint64_t t[4];
    fe_add(t, num, num);
    fe_add(num, t, num);
    fe_add(den, ay, ay);
  } else {
    fe_sub(num, by, ay);
    fe_sub(den, bx, ax);
  }
  mont_inverse(inv, den);
  fe_mul(lambda, num, inv);
  uint64_t rx[4], ry[4];
  fe_mul(rx, lambda, lambda);
  fe_sub(rx, rx, ax);
  fe_sub(rx, rx, bx);
  fe_sub(ry, ax, rx);
  fe_mul(ry, lambda, ry);
  fe_sub(ry, ry, ay);
  from_mont(x3, rx);
  from_mont(y3, ry);
  return FR_ECADD_OK;
}
