#pragma once
// std::vector whose large buffers ask Linux for transparent huge pages (2 MiB).
//
// Why: the synapse rows of a large network are read at random, one row per spike. At CUBA's
// N = 400,000 the 128 MB of rows span 32,000 pages of 4 KiB, far beyond the second-level TLB
// (about 2,000 entries), so every row costs a page walk before its first cache miss; with
// 2 MiB pages the rows span 64 entries. Where THP is "madvise" (Debian's default) a buffer
// gets huge pages only when it is advised before its first touch, which this allocator does.
// Buffers under 2 MiB, and other systems, get plain 64-byte aligned memory.

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace volley::snn::detail {

template <class T>
struct huge_page_allocator {
    using value_type = T;
    static constexpr std::size_t huge_page = std::size_t{2} << 20;
    static constexpr std::align_val_t line{64};
    huge_page_allocator() = default;
    template <class U>
    huge_page_allocator(const huge_page_allocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < huge_page) return static_cast<T*>(::operator new(bytes, line));
        const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
        void* p = std::aligned_alloc(huge_page, rounded);
        if (!p) throw std::bad_alloc();
#if defined(__linux__)
        madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without THP the pages stay small
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < huge_page) ::operator delete(p, line);
        else std::free(p);
    }
    template <class U>
    bool operator==(const huge_page_allocator<U>&) const noexcept {
        return true;
    }
};

template <class T>
using huge_page_vector = std::vector<T, huge_page_allocator<T>>;

}  // namespace volley::snn::detail
