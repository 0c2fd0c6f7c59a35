#pragma once
// std::vector on 64-byte (cache-line) boundaries, for arrays that vector loops read and write
// a full 512-bit register at a time: an access split across two cache lines costs twice, and a
// store that a later load cannot forward from stalls a read-modify-write chain.

#include <cstddef>
#include <new>
#include <vector>

namespace volley::snn::detail {

template <class T>
struct cache_aligned_allocator {
    using value_type = T;
    static constexpr std::align_val_t alignment{64};
    cache_aligned_allocator() = default;
    template <class U>
    cache_aligned_allocator(const cache_aligned_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), alignment)); }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, alignment); }
    template <class U>
    bool operator==(const cache_aligned_allocator<U>&) const noexcept {
        return true;
    }
};

template <class T>
using aligned_vector = std::vector<T, cache_aligned_allocator<T>>;

}  // namespace volley::snn::detail
