#pragma once
// The temporal task as an EONS problem (docs/temporal.md, "EONS"): the network template (the
// task's inputs and outputs, the processor's property pack) and a fitness function = accuracy
// on a fixed set of encoded training sequences. Only the structs of eons/evolution.hpp are used
// (header only).

#include <volley/eons/evolution.hpp>
#include <volley/temporal/decoding.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/processor_spec.hpp>
#include <volley/temporal/question.hpp>

#include <memory>
#include <vector>

namespace volley::temporal {

/// Everything a fitness evaluation needs, shared read-only by all threads.
struct training_problem {
    task_spec task;
    encoding_options encoding;
    decoding_options decoding;
    processor_spec processor;
    std::vector<encoded_sequence> sequences;  ///< with their true answers
};

/// The template of the task's networks: task.classes inputs, 1 output, the processor's pack, no
/// network values.
eons::network_template make_network_template(const task_spec& task, const processor_spec& processor);

/// fitness(net) = accuracy of net over problem->sequences on a processor of problem->processor
/// (made afresh by every call, so calls may run concurrently). A network of the wrong shape
/// throws invalid_parameter; one the DANNA grid cannot place (unroutable_network) scores 0.
/// invalid_parameter for an empty problem or invalid settings.
eons::fitness_function make_fitness(std::shared_ptr<const training_problem> problem);

/// The same fitness as cases, one per training sequence: the share of its answers the network
/// gives right (all 0 for a network the grid cannot place). Their mean is the accuracy, as every
/// sequence of a question has the same number of answers. For lexicase selection.
eons::case_fitness_function make_case_fitness(std::shared_ptr<const training_problem> problem);

}  // namespace volley::temporal
