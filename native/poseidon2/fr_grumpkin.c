/*
 * BN254 Fr inversion and Grumpkin affine addition. The AVM's ECADD returns an affine point, so every opcode
 * pays one inversion; Noir's multi-scalar multiplication runs hundreds of them per call. Inversion is Pornin's
 * optimised binary GCD ("Optimized Binary GCD for Modular Inversion", 2020): 31 binary-GCD steps at a time on
 * 64-bit approximations of (a, b) (their low 31 and top 33 bits), then one update of the full numbers and of
 * the Bezout coefficients, about 17 rounds for 254 bits. The coefficients are divided by 2^31 each round with a
 * Montgomery step, so no correction is left at the end. Should it not converge within its bound (it provably
 * does), the plain binary extended Euclid finishes the job. Field elements in the AVM are public: variable time
 * is fine. The curve
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

/* The plain binary extended Euclid: about 2 x 254 halvings and 254 subtractions. */
static void inverse_binary(uint64_t out[4], const uint64_t a[4]) {
  /* Invariants: x1 * a = u and x2 * a = v (mod p); gcd(u, v) = gcd(a, p) = 1; u, v odd after stripping. */
  uint64_t u[4], v[4], x1[4] = {1, 0, 0, 0}, x2[4] = {0, 0, 0, 0};
  memcpy(u, a, sizeof u);
  memcpy(v, P2_MODULUS, sizeof v);
  strip_twos(u, x1);
  for (;;) {
    if (words_eq(u, ONE)) {
      memcpy(out, x1, sizeof x1);
      return;
    }
    if (words_eq(v, ONE)) {
      memcpy(out, x2, sizeof x2);
      return;
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
/* ---- Pornin's binary GCD: 320-bit two's complement scratch (5 words) for the signed linear combinations. */

#define STEPS 31
#define STEP_MASK ((UINT64_C(1) << STEPS) - 1)

static inline void neg5(uint64_t r[5]) {
  p2_u128 c = 1;
  for (int i = 0; i < 5; i++) {
    c += (p2_u128)(~r[i]);
    r[i] = (uint64_t)c;
    c >>= 64;
  }
}

/* r = a * f + b * g for a, b < 2^256 and |f|, |g| <= 2^31 (so |r| < 2^288). */
static inline void lin5(uint64_t r[5], const uint64_t a[4], int64_t f, const uint64_t b[4], int64_t g) {
  uint64_t ta[5], tb[5];
  const uint64_t fm = f < 0 ? (uint64_t)0 - (uint64_t)f : (uint64_t)f;
  const uint64_t gm = g < 0 ? (uint64_t)0 - (uint64_t)g : (uint64_t)g;
  p2_u128 ca = 0, cb = 0;
  for (int i = 0; i < 4; i++) {
    ca += (p2_u128)a[i] * fm;
    ta[i] = (uint64_t)ca;
    ca >>= 64;
    cb += (p2_u128)b[i] * gm;
    tb[i] = (uint64_t)cb;
    cb >>= 64;
  }
  ta[4] = (uint64_t)ca;
  tb[4] = (uint64_t)cb;
  if (f < 0) neg5(ta);
  if (g < 0) neg5(tb);
  p2_u128 c = 0;
  for (int i = 0; i < 5; i++) {
    c += (p2_u128)ta[i] + tb[i];
    r[i] = (uint64_t)c;
    c >>= 64;
  }
}

/* Arithmetic shift right by STEPS. */
static inline void sar5(uint64_t r[5]) {
  for (int i = 0; i < 4; i++) r[i] = r[i] >> STEPS | r[i + 1] << (64 - STEPS);
  r[4] = (uint64_t)((int64_t)r[4] >> STEPS);
}

static inline int neg5_sign(const uint64_t r[5]) { return (int)(r[4] >> 63); }

/*
 * (a, b) <- ((a f + b g) / 2^31, ...) on the full numbers: returns 0 if the low 31 bits are not zero (they
 * always are); a negative result is negated along with its coefficients.
 */
static inline int update_ab(uint64_t out[4], const uint64_t a[4], const uint64_t b[4], int64_t *f, int64_t *g) {
  uint64_t t[5];
  lin5(t, a, *f, b, *g);
  if (t[0] & STEP_MASK) return 0;
  sar5(t);
  if (neg5_sign(t)) {
    neg5(t);
    *f = -*f;
    *g = -*g;
  }
  memcpy(out, t, 32);
  return t[4] == 0;
}

/* out = (u f + v g) / 2^31 mod p for canonical u, v: a Montgomery step adds q p to clear the low 31 bits. */
static inline void update_uv(uint64_t out[4], const uint64_t u[4], int64_t f, const uint64_t v[4], int64_t g) {
  uint64_t t[5], qp[5];
  lin5(t, u, f, v, g);
  const uint64_t q = (t[0] * P2_PINV64) & STEP_MASK; /* t + q p = 0 mod 2^31 */
  static const uint64_t zero[4] = {0, 0, 0, 0};
  lin5(qp, P2_MODULUS, (int64_t)q, zero, 0);
  p2_u128 c = 0;
  for (int i = 0; i < 5; i++) {
    c += (p2_u128)t[i] + qp[i];
    t[i] = (uint64_t)c;
    c >>= 64;
  }
  sar5(t); /* |t| < (2^287 + 2^285) / 2^31 < 2^257; in fact in (-2p, 3p) */
  while (neg5_sign(t)) {
    p2_u128 d = 0;
    for (int i = 0; i < 5; i++) {
      d += (p2_u128)t[i] + (i < 4 ? P2_MODULUS[i] : 0);
      t[i] = (uint64_t)d;
      d >>= 64;
    }
  }
  while (t[4] != 0 || words_ge(t, P2_MODULUS)) {
    const uint64_t borrow = words_sub(t, t, P2_MODULUS);
    t[4] -= borrow;
  }
  memcpy(out, t, 32);
}

static inline unsigned bit_length(const uint64_t a[4]) {
  for (int i = 3; i >= 0; i--)
    if (a[i]) return 64 * (unsigned)i + 64 - (unsigned)__builtin_clzll(a[i]);
  return 0;
}

/* 64 bits of a starting at bit s (s + 64 <= 256 or the bits above are zero). */
static inline uint64_t bits_at(const uint64_t a[4], unsigned s) {
  const unsigned w = s / 64, sh = s % 64;
  uint64_t r = a[w] >> sh;
  if (sh && w + 1 < 4) r |= a[w + 1] << (64 - sh);
  return r;
}

int fr_inverse_words(uint64_t out[4], const uint64_t x[4]) {
  if (words_zero(x)) return 0;
  /* Invariants: a = u x and b = v x (mod p), a, b >= 0, gcd(a, b) = 1. Ends with a = 0, b = 1, v = x^-1. */
  uint64_t a[4], b[4], u[4] = {1, 0, 0, 0}, v[4] = {0, 0, 0, 0};
  memcpy(a, x, sizeof a);
  memcpy(b, P2_MODULUS, sizeof b);
  /* 2 x 254 - 1 steps suffice (Pornin, theorem 1): 17 rounds of 31; a few spare before giving up. */
  for (int round = 0; round < 24; round++) {
    if (words_zero(a)) {
      if (!words_eq(b, ONE)) break;
      memcpy(out, v, sizeof v);
      return 1;
    }
    unsigned n = bit_length(a);
    const unsigned nb = bit_length(b);
    if (nb > n) n = nb;
    uint64_t abar, bbar;
    if (n <= 64) {
      abar = a[0];
      bbar = b[0];
    } else {
      abar = (a[0] & STEP_MASK) | bits_at(a, n - 33) << STEPS;
      bbar = (b[0] & STEP_MASK) | bits_at(b, n - 33) << STEPS;
    }
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    /* Branch-free: the steps' branches are unpredictable, and mispredictions would cost more than the work. */
    for (int j = 0; j < STEPS; j++) {
      const uint64_t odd = (uint64_t)0 - (abar & 1);
      const uint64_t swap = odd & ((uint64_t)0 - (uint64_t)(abar < bbar));
      const uint64_t t = (abar ^ bbar) & swap;
      abar ^= t;
      bbar ^= t;
      const int64_t tf = (f0 ^ f1) & (int64_t)swap;
      f0 ^= tf;
      f1 ^= tf;
      const int64_t tg = (g0 ^ g1) & (int64_t)swap;
      g0 ^= tg;
      g1 ^= tg;
      abar -= bbar & odd;
      f0 -= f1 & (int64_t)odd;
      g0 -= g1 & (int64_t)odd;
      abar >>= 1;
      f1 *= 2;
      g1 *= 2;
    }
    uint64_t na[4], nb4[4];
    if (!update_ab(na, a, b, &f0, &g0) || !update_ab(nb4, a, b, &f1, &g1)) break;
    uint64_t nu[4], nv[4];
    update_uv(nu, u, f0, v, g0);
    update_uv(nv, u, f1, v, g1);
    memcpy(a, na, sizeof a);
    memcpy(b, nb4, sizeof b);
    memcpy(u, nu, sizeof u);
    memcpy(v, nv, sizeof v);
  }
  inverse_binary(out, x);
  return 1;
}

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
