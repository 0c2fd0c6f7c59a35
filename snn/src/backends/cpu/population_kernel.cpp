// The population-kernel interface's shared pieces (see population_kernel.hpp).

#include "backends/cpu/population_kernel.hpp"

#include <volley/error.hpp>

namespace volley::snn::detail {

void throw_no_state(const std::string& population, const std::string& variable) {
    throw unknown_name("state variable", variable, "population '" + population + "' (spike sources have no state)");
}

}  // namespace volley::snn::detail
