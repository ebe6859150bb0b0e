#pragma once
// The data every collective is checked with: small integers per rank and index, chosen so that any
// reduction over the ranks is exact in the element type, and the value each output element must hold.
// Shared word for word by the host check (cpu backend) and the CUDA kernels: no std headers beyond
// <cstdint>, every function usable on host and device.
#include <cstdint>

#if defined(__CUDACC__)
#define GPUSCALE_HD __host__ __device__
#else
#define GPUSCALE_HD
#endif

namespace gpuscale::collectives::pattern {

// What an op's output holds; each op file names its own.
enum class Expect : int {
  reduced,          // element k = op over ranks of input(r, k)                  (allreduce)
  gathered,         // element k = input(k / count, k % count)                   (allgather)
  reduced_block,    // element k = op over ranks of input(r, rank * count + k)   (reducescatter)
  from_root,        // element k = input(root, k)                                (broadcast)
  reduced_at_root,  // as reduced, on the root only; other ranks are not checked (reduce)
  exchanged,        // element k = input(k / count, rank * count + k % count)    (alltoall)
  from_previous,    // element k = input((rank - 1) mod ranks, k)                (ring sendrecv)
};

enum class Reduce : int { sum, prod, min, max, avg };

struct Spec {
  Expect expect = Expect::reduced;
  Reduce reduce = Reduce::sum;
  int ranks = 1;
  int rank = 0;             // whose input a fill writes; whose output a check reads
  int root = 0;
  std::uint64_t count = 0;  // the op's count argument (block size of gathered/exchanged/reduced_block)
  int span = 1;             // inputs lie in 1..span
  double tolerance = 0;     // relative; non-zero only for avg in floating types (NCCL pre-scales by 1/ranks)
};

// Rank r's input at index i: never zero (so a cleared, unwritten output element is always wrong).
// prod: one rank contributes 2, the others 1, so the product is 2 at any rank count. avg: equal on every
// rank, so the mean is the value itself.
GPUSCALE_HD inline std::int64_t input(const Spec& s, int rank, std::uint64_t i) {
  const auto span = static_cast<std::uint64_t>(s.span);
  if (s.reduce == Reduce::prod) return i % static_cast<std::uint64_t>(s.ranks) == static_cast<std::uint64_t>(rank) ? 2 : 1;
  if (s.reduce == Reduce::avg) return 1 + static_cast<std::int64_t>((i * 3) % span);
  return 1 + static_cast<std::int64_t>((static_cast<std::uint64_t>(rank) * 7 + i * 3) % span);
}

GPUSCALE_HD inline std::int64_t reduced(const Spec& s, std::uint64_t i) {
  std::int64_t acc = input(s, 0, i);
  for (int r = 1; r < s.ranks; ++r) {
    const std::int64_t v = input(s, r, i);
    switch (s.reduce) {
      case Reduce::sum:
      case Reduce::avg: acc += v; break;
      case Reduce::prod: acc *= v; break;
      case Reduce::min: acc = v < acc ? v : acc; break;
      case Reduce::max: acc = v > acc ? v : acc; break;
    }
  }
  return s.reduce == Reduce::avg ? acc / s.ranks : acc;
}

// Whether rank s.rank's output is defined at all (reduce leaves non-root outputs untouched).
GPUSCALE_HD inline bool checked(const Spec& s) { return !(s.expect == Expect::reduced_at_root && s.rank != s.root); }

GPUSCALE_HD inline std::int64_t expected(const Spec& s, std::uint64_t k) {
  const std::uint64_t block = s.count ? s.count : 1;
  switch (s.expect) {
    case Expect::reduced:
    case Expect::reduced_at_root: return reduced(s, k);
    case Expect::gathered: return input(s, static_cast<int>(k / block), k % block);
    case Expect::reduced_block: return reduced(s, static_cast<std::uint64_t>(s.rank) * block + k);
    case Expect::from_root: return input(s, s.root, k);
    case Expect::exchanged:
      return input(s, static_cast<int>(k / block), static_cast<std::uint64_t>(s.rank) * block + k % block);
    case Expect::from_previous: return input(s, (s.rank + s.ranks - 1) % s.ranks, k);
  }
  return 0;
}

GPUSCALE_HD inline bool matches(const Spec& s, double got, std::int64_t want) {
  const double w = static_cast<double>(want);
  if (s.tolerance == 0) return got == w;
  const double diff = got > w ? got - w : w - got;
  return diff <= s.tolerance * w;
}

}  // namespace gpuscale::collectives::pattern
