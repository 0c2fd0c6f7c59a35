#pragma once
// Runs the `volley` command line (VOLLEY_CLI) for the CLI tests: exit status, stdout, stderr.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace volley::testing {

struct cli_result {
    int code;
    std::string out, err;
};

/// Runs `volley ARGS` with stdout and stderr captured in files of `dir`.
inline cli_result run_volley(const std::string& args, const std::filesystem::path& dir) {
    const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
    const int status = std::system((std::string(VOLLEY_CLI) + " " + args + " > " + out.string() + " 2> " + err.string()).c_str());
    const auto slurp = [](const std::filesystem::path& p) {
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    };
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace volley::testing
