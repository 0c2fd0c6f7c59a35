#include "noise_source.hpp"

#include <chrono>
#include <string_view>

namespace volley::hw::detail {

void noise_source::seed(std::uint32_t noisy_seed) {
    std::uint32_t s = noisy_seed;
    if (s == 0) {
        const auto now = std::chrono::system_clock::now().time_since_epoch();
        const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now).count();
        const auto micros =
            std::chrono::duration_cast<std::chrono::microseconds>(now).count() % 1000000;
        s = static_cast<std::uint32_t>(secs) ^ (static_cast<std::uint32_t>(micros & 0xfff) << 20) ^
            static_cast<std::uint32_t>(micros & 0xff000);
    }
    std::uint32_t djb = 5381;
    for (char c : std::string_view("noisy_risp")) djb = djb * 33 + static_cast<unsigned char>(c);
    engine_.seed(s ^ djb);
    engine_.discard(19);
    has_cached_ = false;
}

}  // namespace volley::hw::detail
