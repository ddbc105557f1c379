/*
 * Poseidon2 / BN254 Fr engine: parameters, kernel selection, conversions and the sponge drivers.
 * See poseidon2.h for the interface.
 *
 * Kernels (all bit-identical; the tests cross-check them):
 *  - portable: C with unsigned __int128, Montgomery R = 2^256, values lazily reduced to [0, 2p) (any 64-bit
 *    target);
 *  - mulx-adx: the same permutation with an inline-asm BMI2/ADX multiplication (p2_adx.c);
 *  - avx512ifma: 8 hashes per zmm register, 52-bit limbs (p2_ifma.c), used for batches.
 * A permutation is 488 field multiplications (8 full rounds x 4 S-boxes x 3, plus 56 partial rounds x (3 + 4
 * diagonal)), so the multiplication kernel is the whole story.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "constants.h"
#include "p2_scalar_field.h"

const uint64_t P2_MODULUS[4] = {P2_P0, P2_P1, P2_P2, P2_P3};

uint64_t P2_RC_CANON[64][4][4];
uint64_t P2_DIAG_CANON[4][4];
p2_fe P2_RC_FULL[8][4];
p2_fe P2_RC_PARTIAL[56];
p2_fe P2_DIAG[4];

static uint64_t R2_256[4]; /* 2^512 mod p: p2_mont_mul(x, R2) = x * 2^256, entry to Montgomery form */

#define P2_MUL(r, a, b) p2_mont_mul_portable((r), (a), (b))
#define P2_KERNEL(name) name##_portable
#include "p2_scalar_perm.inc"
#undef P2_MUL
#undef P2_KERNEL

/* ---------------------------------------------------------------------------------------------------------
 * Canonical-word helpers.
 * ------------------------------------------------------------------------------------------------------- */

int p2_is_canonical_words(const uint64_t w[4]) {
  for (int i = 3; i >= 0; i--) {
    if (w[i] != P2_MODULUS[i]) return w[i] < P2_MODULUS[i];
  }
  return 0; /* equal to p */
}

void p2_words_mul_pow2(uint64_t out[4], const uint64_t in[4], unsigned k) {
  uint64_t x[4];
  memcpy(x, in, sizeof x);
  for (unsigned i = 0; i < k; i++) {
    /* Canonical doubling: x < p < 2^254, so 2x fits in 256 bits. */
    uint64_t d[4] = {x[0] << 1, x[1] << 1 | x[0] >> 63, x[2] << 1 | x[1] >> 63, x[3] << 1 | x[2] >> 63};
    p2_sub_if_ge(x, d, P2_MODULUS);
  }
  memcpy(out, x, sizeof x);
}

static inline uint64_t load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

static inline void store_be64(uint8_t *p, uint64_t v) {
  v = __builtin_bswap64(v);
  memcpy(p, &v, 8);
}

static inline void be_to_words(uint64_t w[4], const uint8_t be[32]) {
  w[0] = load_be64(be + 24);
  w[1] = load_be64(be + 16);
  w[2] = load_be64(be + 8);
  w[3] = load_be64(be);
}

int p2_is_canonical_be(const uint8_t be[32]) {
  uint64_t w[4];
  be_to_words(w, be);
  return p2_is_canonical_words(w);
}

void p2_from_words(p2_fe *out, const uint64_t w[4]) { p2_mont_mul_portable(out->w, w, R2_256); }

void p2_to_words(uint64_t w[4], const p2_fe *in) {
  /* in < 2p, so in / R + p < p + 1: the product is at most p, and one subtraction makes it canonical. */
  static const uint64_t one[4] = {1, 0, 0, 0};
  uint64_t t[4];
  p2_mont_mul_portable(t, in->w, one);
  p2_sub_if_ge(w, t, P2_MODULUS);
}

void p2_from_be(p2_fe *out, const uint8_t be[32]) {
  uint64_t w[4];
  be_to_words(w, be);
  p2_from_words(out, w);
}

void p2_to_be(uint8_t be[32], const p2_fe *in) {
  uint64_t w[4];
  p2_to_words(w, in);
  store_be64(be, w[3]);
  store_be64(be + 8, w[2]);
  store_be64(be + 16, w[1]);
  store_be64(be + 24, w[0]);
}

/* ---------------------------------------------------------------------------------------------------------
 * Initialisation and kernel selection.
 * ------------------------------------------------------------------------------------------------------- */

static p2_permute1_fn permute1 = p2_permute1_portable;
static p2_permute2_fn permute2 = p2_permute2_portable;
static int use_ifma = 0;
static int cpu_has_adx = 0;
static int cpu_has_ifma = 0;

static int hex_nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

static void words_from_hex(uint64_t w[4], const char *hex) {
  uint8_t be[32];
  for (int i = 0; i < 32; i++) be[i] = (uint8_t)(hex_nibble(hex[2 * i]) << 4 | hex_nibble(hex[2 * i + 1]));
  be_to_words(w, be);
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_all(void) {
  const uint64_t one[4] = {1, 0, 0, 0};
  p2_words_mul_pow2(R2_256, one, 512);
  for (int r = 0; r < 64; r++)
    for (int l = 0; l < 4; l++) words_from_hex(P2_RC_CANON[r][l], P2_ROUND_CONSTANTS_HEX[r][l]);
  for (int i = 0; i < 4; i++) words_from_hex(P2_DIAG_CANON[i], P2_DIAG_MINUS_ONE_HEX[i]);
  for (int i = 0; i < 4; i++) p2_from_words(&P2_DIAG[i], P2_DIAG_CANON[i]);
  for (int r = 0; r < 4; r++)
    for (int l = 0; l < 4; l++) {
      p2_from_words(&P2_RC_FULL[r][l], P2_RC_CANON[r][l]);
      p2_from_words(&P2_RC_FULL[r + 4][l], P2_RC_CANON[r + 60][l]);
    }
  for (int r = 0; r < 56; r++) p2_from_words(&P2_RC_PARTIAL[r], P2_RC_CANON[r + 4][0]);

#if defined(P2_HAVE_X86_KERNELS)
  __builtin_cpu_init();
  cpu_has_adx = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
  /* libgcc also checks that the OS saves the zmm state (XCR0) before reporting AVX-512 features. */
  cpu_has_ifma = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
  if (cpu_has_ifma) p2_ifma_init();
#endif
  p2_set_kernel(P2_KERNEL_BEST);
}

void p2_init(void) { pthread_once(&init_once, init_all); }

int p2_set_kernel(p2_kernel k) {
  if (k == P2_KERNEL_BEST) k = cpu_has_ifma ? P2_KERNEL_IFMA : cpu_has_adx ? P2_KERNEL_ADX : P2_KERNEL_PORTABLE;
  switch (k) {
    case P2_KERNEL_PORTABLE:
      permute1 = p2_permute1_portable;
      permute2 = p2_permute2_portable;
      use_ifma = 0;
      return 0;
#if defined(P2_HAVE_X86_KERNELS)
    case P2_KERNEL_ADX:
    case P2_KERNEL_IFMA:
      if (!cpu_has_adx || (k == P2_KERNEL_IFMA && !cpu_has_ifma)) return -1;
      permute1 = p2_permute1_adx;
      permute2 = p2_permute2_adx;
      use_ifma = k == P2_KERNEL_IFMA;
      return 0;
#endif
    default:
      return -1;
  }
}

p2_kernel p2_get_kernel(void) {
  if (use_ifma) return P2_KERNEL_IFMA;
#if defined(P2_HAVE_X86_KERNELS)
  if (permute1 == p2_permute1_adx) return P2_KERNEL_ADX;
#endif
  return P2_KERNEL_PORTABLE;
}

const char *p2_kernel_name(p2_kernel k) {
  switch (k) {
    case P2_KERNEL_PORTABLE:
      return "portable";
    case P2_KERNEL_ADX:
      return "mulx-adx";
    case P2_KERNEL_IFMA:
      return "avx512ifma";
    default:
      return "best";
  }
}

/* ---------------------------------------------------------------------------------------------------------
 * Permutation and sponge.
 * ------------------------------------------------------------------------------------------------------- */

void p2_permute(p2_fe state[4]) { permute1(state); }

static inline void sponge_iv(p2_fe *out, size_t n) {
  const uint64_t w[4] = {0, (uint64_t)n, 0, 0};
  p2_from_words(out, w);
}

void p2_hash(p2_fe *out, const p2_fe *in, size_t n) {
  p2_fe st[4];
  memset(st, 0, sizeof st);
  sponge_iv(&st[3], n);
  size_t i = 0;
  do {
    for (size_t j = 0; j < 3 && i + j < n; j++) p2_fe_add(&st[j], &st[j], &in[i + j]);
    permute1(st);
    i += 3;
  } while (i < n);
  *out = st[0];
}

/* A batch of this many hashes or more runs on the IFMA kernel. An 8-lane pass costs the same with 1 hash or 8
 * (about 15 us on the reference machine), a scalar hash about 11 us, so two hashes already favour it. */
#define IFMA_MIN_BATCH 2

/* Sponge states for one hash of `width` <= 3 inputs (a single permutation). */
static void load_state(p2_fe st[4], const uint8_t *in, size_t width, const p2_fe *iv) {
  memset(st, 0, 3 * sizeof(p2_fe));
  st[3] = *iv;
  for (size_t j = 0; j < width; j++) p2_from_be(&st[j], in + 32 * j);
}

static void hash_batch_scalar(uint8_t *out, const uint8_t *in, size_t k, size_t width) {
  if (width > 3) {
    /* Multi-chunk sponges (4-input public-data leaves, longer preimages): one at a time. */
    p2_fe vals[3];
    for (size_t h = 0; h < k; h++) {
      const uint8_t *src = in + 32 * width * h;
      p2_fe st[4];
      memset(st, 0, sizeof st);
      sponge_iv(&st[3], width);
      size_t i = 0;
      do {
        for (size_t j = 0; j < 3 && i + j < width; j++) {
          p2_from_be(&vals[j], src + 32 * (i + j));
          p2_fe_add(&st[j], &st[j], &vals[j]);
        }
        permute1(st);
        i += 3;
      } while (i < width);
      p2_to_be(out + 32 * h, &st[0]);
    }
    return;
  }
  p2_fe iv;
  sponge_iv(&iv, width);
  size_t h = 0;
  for (; h + 2 <= k; h += 2) {
    p2_fe st[2][4];
    load_state(st[0], in + 32 * width * h, width, &iv);
    load_state(st[1], in + 32 * width * (h + 1), width, &iv);
    permute2(st);
    p2_to_be(out + 32 * h, &st[0][0]);
    p2_to_be(out + 32 * (h + 1), &st[1][0]);
  }
  if (h < k) {
    p2_fe st[4];
    load_state(st, in + 32 * width * h, width, &iv);
    permute1(st);
    p2_to_be(out + 32 * h, &st[0]);
  }
}

long p2_hash_batch_be(uint8_t *out, const uint8_t *in, size_t k, size_t width) {
  /* Validate everything first so that no kernel ever sees a non-canonical element. */
  const size_t total = k * width;
  for (size_t i = 0; i < total; i++) {
    if (!p2_is_canonical_be(in + 32 * i)) return (long)i;
  }
#if defined(P2_HAVE_X86_KERNELS)
  if (use_ifma && k >= IFMA_MIN_BATCH) {
    p2_ifma_hash_be(out, in, k, width);
    return -1;
  }
#endif
  hash_batch_scalar(out, in, k, width);
  return -1;
}
