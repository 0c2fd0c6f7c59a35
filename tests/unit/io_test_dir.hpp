#pragma once
// A scratch directory per test, removed afterwards, for the recording-output tests.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

namespace volley::test {

/// Fixture that gives each test an empty directory `dir` under the system temp directory.
class io_test : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir = std::filesystem::temp_directory_path() /
              ("volley_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
               std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    std::filesystem::path dir;
};

}  // namespace volley::test
