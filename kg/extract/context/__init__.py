"""What is added to facts once read: event class, time, place, claims, dated roles; and negation and modality."""
