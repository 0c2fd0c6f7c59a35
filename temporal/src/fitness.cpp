// The temporal task as an EONS problem (see fitness.hpp).

#include <volley/temporal/fitness.hpp>

#include <volley/error.hpp>
#include <volley/temporal/sequence_runner.hpp>

#include <algorithm>

namespace volley::temporal {

eons::network_template make_network_template(const task_spec& task, const processor_spec& processor) {
    task.validate();
    eons::network_template t;
    t.properties = processor.network_properties();
    t.inputs = task.classes;
    t.outputs = 1;
    t.network_values = nlohmann::json::array();
    return t;
}

namespace {

void check_problem(const std::shared_ptr<const training_problem>& problem) {
    if (!problem) throw invalid_parameter("temporal fitness", "problem", "null", "give a training problem");
    if (problem->sequences.empty())
        throw invalid_parameter("temporal fitness", "sequences", "0", "give at least one training sequence");
    problem->task.validate();
    problem->encoding.validate();
    problem->decoding.validate();
    problem->processor.make();  // unknown kinds and bad proc_params fail here, not in a worker
}

}  // namespace

eons::case_fitness_function make_case_fitness(std::shared_ptr<const training_problem> problem) {
    check_problem(problem);
    return [problem](const hw::tennlab_network& net) -> std::vector<double> {
        const auto& seqs = problem->sequences;
        std::vector<double> cases(seqs.size(), 0.0);
        try {
            sequence_runner runner(problem->processor, net, problem->task, problem->encoding, problem->decoding);
            for (std::size_t i = 0; i < seqs.size(); ++i) {
                answer_tally t;
                tally_answers(t, runner.run(seqs[i]).answers, seqs[i].answers);
                cases[i] = t.accuracy();
            }
        } catch (const unroutable_network&) {
            std::fill(cases.begin(), cases.end(), 0.0);
        }
        return cases;
    };
}

eons::fitness_function make_fitness(std::shared_ptr<const training_problem> problem) {
    check_problem(problem);
    return [problem](const hw::tennlab_network& net) -> double {
        try {
            const auto score = evaluate_network(problem->processor, net, problem->task, problem->encoding,
                                                 problem->decoding, problem->sequences);
            return score.accuracy;
        } catch (const unroutable_network&) {
            return 0.0;
        }
    };
}

}  // namespace volley::temporal
