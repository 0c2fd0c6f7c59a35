#pragma once
// The Python that runs the NEST harnesses of bench/peers (as `volley bench peers` chooses it):
// /usr/bin/python3 or the first python3 on PATH that imports nest; and the last JSON line a
// harness prints. The NEST match tests skip when no Python imports nest.

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace volley::testing {

/// The last JSON line printed by `cmd`, or null when it failed.
inline nlohmann::json run_json(const std::string& cmd) {
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen((cmd + " 2>/dev/null").c_str(), "r"), pclose);
    if (!p) return nullptr;
    std::string out;
    char buf[1 << 14];
    while (std::fgets(buf, sizeof buf, p.get())) out = buf;
    try {
        return nlohmann::json::parse(out);
    } catch (const std::exception&) {
        return nullptr;
    }
}

/// /usr/bin/python3 or the first python3 on PATH that imports nest; empty when none does.
inline const std::string& nest_python() {
    static const std::string found = [] {
        std::vector<std::string> candidates{"/usr/bin/python3"};
        std::stringstream dirs(std::getenv("PATH") ? std::getenv("PATH") : "");
        for (std::string dir; std::getline(dirs, dir, ':');)
            if (!dir.empty()) candidates.push_back(dir + "/python3");
        for (const auto& p : candidates)
            if (access(p.c_str(), X_OK) == 0 &&
                std::system((p + " -c 'import nest' >/dev/null 2>&1").c_str()) == 0)
                return p;
        return std::string{};
    }();
    return found;
}

}  // namespace volley::testing

#define SKIP_WITHOUT_NEST()                     \
    if (::volley::testing::nest_python().empty()) \
    GTEST_SKIP() << "no python3 imports nest (scripts/setup --peers)"
