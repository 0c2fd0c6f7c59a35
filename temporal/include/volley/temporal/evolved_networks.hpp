#pragma once
// The networks that EONS designed from random networks for the temporal questions, carried by
// the library (temporal/networks/, made by temporal/networks/evolve.sh; docs/temporal.md,
// "Evolved networks"): `volley evolve` on danna2 with oracle features, the winner code and 10
// cycles per frame, population 100, 300 generations, the best of seeds 1-3 by training fitness.
// The demo starts its EONS runs from them; the hand-built networks are the reference beside them.

#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/question.hpp>

namespace volley::temporal {

/// The evolved network for `task`, with its Associated_Data.volley_evolve (how it was made).
/// It was evolved for the default task_spec of its question and the winner code of
/// encoding_options' default cycles_per_frame: invalid_parameter naming the field and the value
/// for another class, frame count, class count, coding or cycles_per_frame.
hw::tennlab_network evolved_network(const task_spec& task, const encoding_options& encoding);

}  // namespace volley::temporal
