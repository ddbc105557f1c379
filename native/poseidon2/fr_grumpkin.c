/*
 * BN254 Fr inversion and Grumpkin affine addition. The AVM's ECADD returns an affine point, so every opcode
 * pays one inversion; Noir's multi-scalar multiplication runs hundreds of them per call. Inversion is
 * Bernstein-Yang's safegcd with 62 division steps per round, in its variable-time form (field elements in the
 * AVM are public, so nothing here needs constant time): about 9 rounds, 1.7 us of CPU on the 2-core EPYC the
 * benchmarks ran on, against 2.2-3 us for the Pornin binary GCD with 31-step rounds it replaced. The curve
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

/*
 * ---- Inversion: Bernstein-Yang safegcd, variable time, 62 divsteps per round ("Fast constant-time gcd
 * computation and modular inversion", 2019, with the variable-time shortcuts: runs of zeros of g skipped with one
 * count-trailing-zeros, up to 6 bits of g cancelled at once). Numbers are held as five signed 62-bit limbs,
 * v = sum l[i] 2^(62 i): limbs 0-3 in [0, 2^62), the top one signed, so that a 2x2 matrix of entries up to 2^62
 * times a limb, plus a carry, fits a signed 128-bit product.
 *
 * Invariants: d x = f and e x = g (mod p); gcd(f, g) = gcd(p, x) = 1. Each round computes, from the low 64 bits
 * of f and g alone, the matrix t of 62 divsteps (scaled by 2^62), then applies it to (f, g), where the low 62
 * bits of the result vanish, and to (d, e), where a multiple of p is added to make them vanish. It ends with
 * g = 0 and f = +-1, so x^-1 = +-d.
 */

#define M62 (UINT64_MAX >> 2)

/* Entries of the 2x2 matrix of 62 divsteps: [f'; g'] 2^62 = [u v; q r] [f; g], |u| + |v| <= 2^62. */
typedef struct {
  int64_t u, v, q, r;
} divstep_matrix;

/* p in signed 62-bit limbs, and p^-1 mod 2^62. */
static int64_t P62[5];
static uint64_t PINV62;

static void words_to_s62(int64_t l[5], const uint64_t w[4]) {
  l[0] = (int64_t)(w[0] & M62);
  l[1] = (int64_t)((w[0] >> 62 | w[1] << 2) & M62);
  l[2] = (int64_t)((w[1] >> 60 | w[2] << 4) & M62);
  l[3] = (int64_t)((w[2] >> 58 | w[3] << 6) & M62);
  l[4] = (int64_t)(w[3] >> 56);
}

/*
 * 62 divsteps on the low 64 bits of f (odd) and g, from eta = -delta; returns the new eta. Division steps only
 * look at the low bits, so the low 64 are enough for 62 of them.
 */
static int64_t divsteps_62(int64_t eta, uint64_t f, uint64_t g, divstep_matrix *t) {
  uint64_t u = 1, v = 0, q = 0, r = 1;
  int left = 62;
  for (;;) {
    /* Steps with g even only halve g (and double the other row): take the whole run at once, at most `left`. */
    const int zeros = __builtin_ctzll(g | (UINT64_MAX << left));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    left -= zeros;
    if (left == 0) break;
    /* g is odd. With delta > 0 (eta < 0) the step swaps: (f, g) <- (g, -f), and eta changes sign. */
    int limit = (int)eta + 1;
    uint64_t mask, w;
    if (eta < 0) {
      eta = -eta;
      const uint64_t tf = f, tu = u, tv = v;
      f = g;
      g = 0 - tf;
      u = q;
      q = 0 - tu;
      v = r;
      r = 0 - tv;
      limit = (int)eta + 1;
      /* Cancel up to 6 low bits of g by adding w f, w = -g / f mod 64 (f (f^2 - 2) is -1/f mod 64 for odd f). */
      if (limit > left) limit = left;
      mask = (UINT64_MAX >> (64 - limit)) & 63;
      w = (f * g * (f * f - 2)) & mask;
    } else {
      /* Without the swap eta is usually small: cancel up to 4 bits (f + ((f + 1) & 4) * 2 is 1/f mod 16). */
      if (limit > left) limit = left;
      mask = (UINT64_MAX >> (64 - limit)) & 15;
      w = f + (((f + 1) & 4) << 1);
      w = (0 - w * g) & mask;
    }
    /* As many steps as bits cancelled, each adding f to g (eta stays >= 0 throughout: limit <= eta + 1). */
    g += f * w;
    q += u * w;
    r += v * w;
  }
  t->u = (int64_t)u;
  t->v = (int64_t)v;
  t->q = (int64_t)q;
  t->r = (int64_t)r;
  return eta;
}

/*
 * (d, e) <- t (d, e) / 2^62 mod p. Inputs in (-2p, p); adding the right multiples of p (md, me) first keeps the
 * outputs in (-2p, p) too, and makes the low 62 bits zero so that the division is a shift.
 */
static void update_de(int64_t d[5], int64_t e[5], const divstep_matrix *t) {
  const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
  const int64_t sd = d[4] >> 63, se = e[4] >> 63;
  int64_t md = (u & sd) + (v & se);
  int64_t me = (q & sd) + (r & se);
  __int128 cd = (__int128)u * d[0] + (__int128)v * e[0];
  __int128 ce = (__int128)q * d[0] + (__int128)r * e[0];
  md -= (int64_t)((PINV62 * (uint64_t)cd + (uint64_t)md) & M62);
  me -= (int64_t)((PINV62 * (uint64_t)ce + (uint64_t)me) & M62);
  cd += (__int128)P62[0] * md;
  ce += (__int128)P62[0] * me;
  cd >>= 62;
  ce >>= 62;
  for (int i = 1; i < 5; i++) {
    cd += (__int128)u * d[i] + (__int128)v * e[i] + (__int128)P62[i] * md;
    ce += (__int128)q * d[i] + (__int128)r * e[i] + (__int128)P62[i] * me;
    d[i - 1] = (int64_t)((uint64_t)cd & M62);
    e[i - 1] = (int64_t)((uint64_t)ce & M62);
    cd >>= 62;
    ce >>= 62;
  }
  d[4] = (int64_t)cd;
  e[4] = (int64_t)ce;
}

/* (f, g) <- t (f, g) / 2^62 on their low `len` limbs (the rest are zero or folded into limb len - 1). */
static void update_fg(int len, int64_t f[5], int64_t g[5], const divstep_matrix *t) {
  const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
  __int128 cf = (__int128)u * f[0] + (__int128)v * g[0];
  __int128 cg = (__int128)q * f[0] + (__int128)r * g[0];
  cf >>= 62;
  cg >>= 62;
  for (int i = 1; i < len; i++) {
    cf += (__int128)u * f[i] + (__int128)v * g[i];
    cg += (__int128)q * f[i] + (__int128)r * g[i];
    f[i - 1] = (int64_t)((uint64_t)cf & M62);
    g[i - 1] = (int64_t)((uint64_t)cg & M62);
    cf >>= 62;
    cg >>= 62;
  }
  f[len - 1] = (int64_t)cf;
  g[len - 1] = (int64_t)cg;
}

/* out = (negate ? -d : d) mod p, canonical, for d in (-2p, p). */
static void s62_to_canonical(uint64_t out[4], const int64_t d[5], int negate) {
  int64_t l[5];
  __int128 c = 0;
  for (int i = 0; i < 5; i++) {
    c += negate ? -(__int128)d[i] : (__int128)d[i];
    if (i < 4) {
      l[i] = (int64_t)((uint64_t)c & M62);
      c >>= 62;
    } else {
      l[i] = (int64_t)c;
    }
  }
  /* 320-bit two's complement; the value is in (-2p, 2p). */
  uint64_t t[5] = {
      (uint64_t)l[0] | (uint64_t)l[1] << 62,
      (uint64_t)l[1] >> 2 | (uint64_t)l[2] << 60,
      (uint64_t)l[2] >> 4 | (uint64_t)l[3] << 58,
      (uint64_t)l[3] >> 6 | (uint64_t)l[4] << 56,
      (uint64_t)(l[4] >> 8),
  };
  while (t[4] >> 63) {
    p2_u128 s = 0;
    for (int i = 0; i < 5; i++) {
      s += (p2_u128)t[i] + (i < 4 ? P2_MODULUS[i] : 0);
      t[i] = (uint64_t)s;
      s >>= 64;
    }
  }
  while (t[4] != 0 || words_ge(t, P2_MODULUS)) t[4] -= words_sub(t, t, P2_MODULUS);
  memcpy(out, t, 32);
}

int fr_inverse_words(uint64_t out[4], const uint64_t x[4]) {
  if (words_zero(x)) return 0;
  int64_t d[5] = {0, 0, 0, 0, 0}, e[5] = {1, 0, 0, 0, 0}, f[5], g[5];
  memcpy(f, P62, sizeof f);
  words_to_s62(g, x);
  int64_t eta = -1;
  int len = 5;
  for (;;) {
    divstep_matrix t;
    eta = divsteps_62(eta, (uint64_t)f[0] | (uint64_t)f[1] << 62, (uint64_t)g[0] | (uint64_t)g[1] << 62, &t);
    update_de(d, e, &t);
    update_fg(len, f, g, &t);
    if (g[0] == 0) {
      int64_t rest = 0;
      for (int i = 1; i < len; i++) rest |= g[i];
      if (rest == 0) break;
    }
    /* When the top limbs of f and g are both 0 or -1, fold them into the limb below: shorter rounds. */
    const int64_t fn = f[len - 1], gn = g[len - 1];
    if (len > 2 && (fn ^ (fn >> 63)) == 0 && (gn ^ (gn >> 63)) == 0) {
      f[len - 2] = (int64_t)((uint64_t)f[len - 2] | (uint64_t)fn << 62);
      g[len - 2] = (int64_t)((uint64_t)g[len - 2] | (uint64_t)gn << 62);
      len--;
    }
  }
  s62_to_canonical(out, d, f[len - 1] < 0);
  return 1;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_constants(void) {
  uint64_t r2[4], seventeen[4] = {17, 0, 0, 0};
  p2_words_mul_pow2(R3_256, ONE, 768);
  p2_words_mul_pow2(r2, ONE, 512);
  fe_mul(SEVENTEEN_M, seventeen, r2);
  words_to_s62(P62, P2_MODULUS);
  /* Newton's iteration doubles the correct low bits of an inverse; p is its own inverse mod 8. */
  uint64_t inv = P2_MODULUS[0];
  for (int i = 0; i < 5; i++) inv *= 2 - P2_MODULUS[0] * inv;
  PINV62 = inv & M62;
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
