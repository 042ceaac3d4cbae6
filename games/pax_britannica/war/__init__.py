"""The War Sequence of Pax Britannica, played by the engine as order windows.

Rules: (20) WAR; THE WAR SEQUENCE; DECLARATIONS OF WAR; THE GREAT WAR; WAR AGAINST MINOR
POWERS; MOVEMENT DURING AN ALLIANCE MANEUVER PHASE; CODOMINIONS AND WARS; COMBAT DURING A
WAR; CONQUERED AREAS; SUPPLY; SURRENDERED UNITS; NEGOTIATION AND ENDING A WAR; CHINESE
REBELLION; WAR WITH THE OTTOMANS; CANALS AND STRAITS; AUSTRIA-HUNGARY.

Modules, one concept each:

- ``model``: the war records in ``state["wars"]``, alliances, who is at war with whom, the
  order wars are fought in (a Chinese Rebellion, then Ottoman wars, then all others);
- ``declare``: declarations of War and joining one (treaty duties, Austria-Hungary, helpers
  of the Ottomans and of Minor Powers), and the Great War (``greatwar``);
- ``sequence``: the War Sequence's windows in the rules' order (``WAR_PHASES``), which comes
  next, who owes orders in it, its label and key, and what each does - every step resolves
  with ``(state, orders, dice, data)``, then the alliance's index;
- ``orders`` (grammar ``war.lark``) and ``checks``: reading and judging war orders;
- ``moves``, ``combat``, ``supply``, ``natives``: the Maneuver, Attack and Supply phases and
  the Chinese and Ottoman armies the engine moves;
- ``ending`` and ``resolution``: War End Determination and the Resolution Phase.

The War Phase's row of the Game Turn's table (``sequence.py`` above this package) plays it all.
"""
