# Native Poseidon2 engine (N-API, plain C). Built by native/build.mjs during `npm ci`; see native/poseidon2/.
{
  "targets": [
    {
      "target_name": "poseidon2",
      "sources": [
        "native/poseidon2/addon.c",
        "native/poseidon2/poseidon2.c",
        "native/poseidon2/p2_adx.c",
        "native/poseidon2/p2_ifma.c",
        "native/poseidon2/fr_grumpkin.c"
      ],
      "defines": ["NAPI_VERSION=8"],
      # Baseline x86-64 code only: the BMI2/ADX and AVX-512 IFMA kernels are chosen at run time from CPUID,
      # so one binary runs on any x86-64 machine.
      "cflags": ["-O3", "-fvisibility=hidden", "-Wall", "-Wextra"],
      "cflags!": ["-O2"],
      "libraries": ["-lpthread"],
      "xcode_settings": {"GCC_OPTIMIZATION_LEVEL": "3"}
    }
  ]
}
