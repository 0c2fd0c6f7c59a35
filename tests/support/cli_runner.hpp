#pragma once
// Runs the `volley` command line (VOLLEY_CLI) for the CLI tests: exit status, stdout, stderr.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace volley::testing {

struct cli_result {
    int code;
    std::string out, err;
    /// stdout parsed as JSON (for `--json` runs).
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

/// The whole content of a file ("" when it cannot be read).
inline std::string read_text_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Runs `volley ARGS` with stdout and stderr captured in files of `dir`.
inline cli_result run_volley(const std::string& args, const std::filesystem::path& dir) {
    const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
    const int status = std::system((std::string(VOLLEY_CLI) + " " + args + " > " + out.string() + " 2> " + err.string()).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text_file(out), read_text_file(err)};
}

/// Runs `volley ARGS` inside `dir` (relative paths in ARGS are taken from there), with no
/// standard input, stdout and stderr captured in files of `dir`.
inline cli_result run_volley_in(const std::filesystem::path& dir, const std::string& args) {
    const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
    const std::string cmd = "cd '" + dir.string() + "' && '" VOLLEY_CLI "' " + args + " >'" + out.string() + "' 2>'" +
                            err.string() + "' </dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text_file(out), read_text_file(err)};
}

}  // namespace volley::testing
