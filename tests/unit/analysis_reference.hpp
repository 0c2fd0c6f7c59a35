#pragma once
// The Elephant / PySpike reference fixture of the analysis tests
// (tests/data/analysis/reference.json, made by make_reference.py beside it).

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

namespace volley::test {

/// The parsed fixture (read once).
inline const nlohmann::json& analysis_reference() {
    static const nlohmann::json data = [] {
        std::ifstream in(std::string(VOLLEY_TEST_DATA_DIR) + "/analysis/reference.json");
        if (!in) throw std::runtime_error("cannot open tests/data/analysis/reference.json");
        return nlohmann::json::parse(in);
    }();
    return data;
}

/// The fixture's spike trains [ms].
inline std::vector<std::vector<double>> reference_trains() {
    return analysis_reference().at("trains").get<std::vector<std::vector<double>>>();
}

/// |actual - expected| <= rel * |expected| (or <= rel when expected is 0); NaN matches NaN.
inline ::testing::AssertionResult close_relative(double actual, double expected,
                                                 double rel = 1e-9) {
    if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
    const double tol = rel * std::max(1.0e-300, std::abs(expected) > 0 ? std::abs(expected) : 1.0);
    if (std::abs(actual - expected) <= tol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "actual " << actual << " vs expected " << expected << " (rel. "
           << std::abs(actual - expected) / std::max(std::abs(expected), 1e-300) << ")";
}

/// Largest relative difference |a - e| / |e| over non-zero e (absolute where e == 0).
inline double max_relative_difference(const std::vector<double>& actual,
                                      const std::vector<double>& expected) {
    double worst = 0;
    for (std::size_t i = 0; i < actual.size() && i < expected.size(); ++i) {
        if (std::isnan(expected[i]) && std::isnan(actual[i])) continue;
        const double scale = expected[i] != 0 ? std::abs(expected[i]) : 1.0;
        worst = std::max(worst, std::abs(actual[i] - expected[i]) / scale);
    }
    return worst;
}

/// A JSON n x n matrix, row-major.
inline std::vector<double> flat_matrix(const nlohmann::json& m) {
    std::vector<double> out;
    for (const auto& row : m)
        for (const auto& v : row) out.push_back(v.is_null() ? std::nan("") : v.get<double>());
    return out;
}

}  // namespace volley::test
